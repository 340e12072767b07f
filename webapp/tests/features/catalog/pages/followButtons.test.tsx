import type { ComponentType } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { components } from "@/api/schema.gen";
import CategoryPage from "@/features/catalog/pages/CategoryPage";
import LeaguePage from "@/features/catalog/pages/LeaguePage";
import SubCategoryPage from "@/features/catalog/pages/SubCategoryPage";
import TeamPage from "@/features/catalog/pages/TeamPage";
import { sessionStore } from "@/session/store";
import { apiLeague, pageOf } from "../../../support/fixtures";
import { renderPage } from "../../../support/renderPage";
import { json, ok, signIn, signOutQuietly } from "../../../session/fakeServer";

type ApiIdentity = components["schemas"]["Identity"];

const SPORT = "da1615c0f704d0738be1abba";
const LEAGUE = "6a796e495b27d266f6b95fa0";
const TEAM = "70e6dd179ad8f10284e10f4b";

const identities: Record<string, ApiIdentity> = {
  [SPORT]: apiLeague({ _id: SPORT, title: "Basketball", media_type: "identity", mediaParentIdentities: [] }),
  [LEAGUE]: apiLeague(),
  [TEAM]: apiLeague({
    _id: TEAM,
    title: "Harbor City Mariners",
    media_type: "team",
    logo: "/media/logos/harbor-city-mariners.svg",
    identityId: [LEAGUE],
    mediaParentIdentities: [{ _id: LEAGUE, title: "Coastal Basketball League", media_type: "identity_item" }],
  }),
};

/** The identity pages' API; every list is empty. Records the follow calls. */
function serve() {
  const follows: { path: string; body: unknown }[] = [];
  vi.stubGlobal("fetch", async (request: Request) => {
    const url = new URL(request.url);
    const byId = /\/api\/identity\/get_by_id\/id\/(\w+)/.exec(url.pathname);
    if (byId) return ok(identities[byId[1]]);
    if (url.pathname.startsWith("/api/follow/")) {
      const body = await request.json();
      follows.push({ path: url.pathname, body });
      const item = identities[(body as { reference_id?: string; id?: string }).reference_id ?? ""];
      return ok(
        item
          ? {
              _id: "f00000000000000000000001",
              reference_id: item._id,
              type: item.media_type,
              added: "2026-11-28T06:00:00Z",
              item,
            }
          : null,
      );
    }
    return json(pageOf([]));
  });
  return follows;
}

const PAGES: [string, ComponentType, string, string, string, string][] = [
  ["the category page", CategoryPage, "/category/:mainId", `/category/${SPORT}`, "Basketball", "identity"],
  [
    "the league page",
    LeaguePage,
    "/league/:leagueId",
    `/league/${LEAGUE}`,
    "Coastal Basketball League",
    "identity_item",
  ],
  [
    "the sub-category page",
    SubCategoryPage,
    "/category/:mainId/sub-category/:subId",
    `/category/${SPORT}/sub-category/${LEAGUE}`,
    "Coastal Basketball League",
    "identity_item",
  ],
  ["the team page", TeamPage, "/team/:teamId", `/team/${TEAM}`, "Harbor City Mariners", "team"],
];

afterEach(() => {
  signOutQuietly();
  vi.unstubAllGlobals();
});

describe.each(PAGES)("%s's header", (_name, Page, path, route, title, type) => {
  it(`follows and unfollows the ${type} from its header`, async () => {
    signIn();
    const follows = serve();
    await renderPage(<Page />, { path, route });

    const header = (await screen.findByRole("heading", { level: 1, name: title })).closest("header")!;
    await userEvent.click(within(header).getByRole("button", { name: `Follow ${title}` }));
    const following = within(header).getByRole("button", { name: `Unfollow ${title}` });
    expect(following.getAttribute("aria-pressed")).toBe("true");
    const id = route.split("/").at(-1)!;
    await waitFor(() => expect(follows).toEqual([{ path: "/api/follow/save", body: { reference_id: id, type } }]));
    expect(sessionStore.getState().followed[id]).toBeTruthy();

    await userEvent.click(following);
    expect(
      within(header)
        .getByRole("button", { name: `Follow ${title}` })
        .getAttribute("aria-pressed"),
    ).toBe("false");
    await waitFor(() => expect(follows.at(-1)).toEqual({ path: "/api/follow/remove_by_reference", body: { id } }));
    expect(sessionStore.getState().followed[id]).toBeUndefined();
  });

  it("asks an anonymous visitor to sign in first", async () => {
    serve();
    await renderPage(<Page />, { path, route });
    const header = (await screen.findByRole("heading", { level: 1, name: title })).closest("header")!;
    expect(
      within(header)
        .getByRole("link", { name: `Sign in to follow ${title}` })
        .getAttribute("href"),
    ).toBe(`/auth/login/?redirect=${encodeURIComponent(route)}`);
  });
});
