import { describe, expect, it } from "vitest";
import type { CatalogEvent } from "@/entities/event";
import { candidateTypeOf, followingPath, followingRouteOf } from "@/features/following/lib/followingRoute";
import { continueTarget } from "@/features/following/lib/returnPath";
import { followedIdsOf } from "@/entities/followed";
import { rankRecommendations } from "@/features/following/api/recommendations";

describe("following routes", () => {
  it("reads the page from the route's name and parameters", () => {
    expect(followingRouteOf("following-league", {})).toEqual({
      signUp: false,
      kind: "league",
      parentId: undefined,
      followedOnly: false,
    });
    expect(followingRouteOf("auth-sign-up-following-category-categoryId-followed", { mainId: "c1" })).toEqual({
      signUp: true,
      kind: "category",
      parentId: "c1",
      followedOnly: true,
    });
  });

  it("builds the paths inside and outside sign-up", () => {
    expect(followingPath({ signUp: false, kind: "league" })).toBe("/following/league/");
    expect(followingPath({ signUp: true, kind: "category" }, "c1", true)).toBe(
      "/auth/sign-up/following/category/c1/followed/",
    );
  });

  it("lists teams of a league, leagues of a category, else leagues or categories", () => {
    expect(candidateTypeOf({ kind: "league", parentId: "l1" })).toBe("team");
    expect(candidateTypeOf({ kind: "league", parentId: undefined })).toBe("identity_item");
    expect(candidateTypeOf({ kind: "category", parentId: "c1" })).toBe("identity_item");
    expect(candidateTypeOf({ kind: "category", parentId: undefined })).toBe("identity");
  });
});

describe("continueTarget", () => {
  it("keeps a path of this site and drops anything else", () => {
    expect(continueTarget("/live", "de")).toBe("/de/live");
    expect(continueTarget("/de/live?x=1", "en")).toBe("/de/live?x=1");
    expect(continueTarget("//evil.test/", "en")).toBe("/");
    expect(continueTarget("https://evil.test/", "en")).toBe("/");
    expect(continueTarget("/auth/login/", "fr")).toBe("/fr/");
    expect(continueTarget(null, "en")).toBe("/");
  });
});

function event(id: string, status: CatalogEvent["status"], startsAt: string, patch: Partial<CatalogEvent> = {}) {
  return {
    id,
    status,
    startsAt: new Date(startsAt),
    teams: null,
    league: null,
    category: null,
    ...patch,
  } as CatalogEvent;
}

describe("recommendations", () => {
  it("splits followed items into identities and teams", () => {
    expect(
      followedIdsOf([
        { id: "l1", title: "L", type: "identity_item", imageUrl: null, identitiesId: [] },
        { id: "t1", title: "T", type: "team", imageUrl: null, identitiesId: [] },
        { id: "c1", title: "C", type: "identity", imageUrl: null, identitiesId: [] },
      ]),
    ).toEqual({ identities: ["c1", "l1"], teams: ["t1"] });
  });

  it("orders live, then upcoming (soonest first), then played (latest first), closer matches first", () => {
    const ids = { identities: ["l1"], teams: ["t1"] };
    const team = (id: string) => ({ id, name: id, fullName: id, shortName: id, logoUrl: null, color: "" });
    const ranked = rankRecommendations(
      [
        event("past-old", "archived", "2026-01-01T00:00:00Z"),
        event("up-late", "upcoming", "2026-12-03T00:00:00Z"),
        event("past-new", "archived", "2026-02-01T00:00:00Z"),
        event("up-soon", "upcoming", "2026-12-01T00:00:00Z"),
        event("up-team", "upcoming", "2026-12-05T00:00:00Z", { teams: { home: team("t1"), away: team("t2") } }),
        event("live", "live", "2026-11-24T00:00:00Z"),
        event("up-soon", "upcoming", "2026-12-01T00:00:00Z"),
      ],
      ids,
    );
    expect(ranked.map((e) => e.id)).toEqual(["live", "up-team", "up-soon", "up-late", "past-new", "past-old"]);
  });
});
