// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest";
import { QueryClient } from "@tanstack/react-query";
import { fetchSearchAll, searchAllQueryOptions } from "@/features/catalog/api/searchAll";
import { searchEventsInfiniteQueryOptions } from "@/features/catalog/api/searchEvents";
import { eventMapOptionsOf } from "@/session/catalog/viewer";
import { appConfigFixture } from "../../../support/appConfig";
import { apiEvent, pageOf } from "../../../support/fixtures";

const answer = {
  content: {
    teams: [
      { _id: "a".repeat(24), title: "Ashford Town", shortTitle: "ASH", logo: "/logo.svg", sportType: "football" },
    ],
    leagues: [
      { _id: "b".repeat(24), title: "Coastal Cup", shortTitle: null, imageUrl: "/cup.svg", sportType: "football" },
    ],
    categories: [{ _id: "c".repeat(24), title: "Football", shortTitle: null, imageUrl: null, sportType: "football" }],
    sports: [{ sportType: "football", title: "Football", count: 7 }],
    events: pageOf([apiEvent()], true).content,
  },
  error: false,
  message: "",
};

function stubFetch() {
  const urls: URL[] = [];
  vi.stubGlobal("fetch", async (request: Request) => {
    urls.push(new URL(request.url));
    return new Response(JSON.stringify(answer), { headers: { "Content-Type": "application/json" } });
  });
  return urls;
}

afterEach(() => vi.unstubAllGlobals());

describe("the grouped search", () => {
  it("asks /search for ten of each and gives each hit its image: a team's logo, a league's poster", async () => {
    const urls = stubFetch();
    const groups = await fetchSearchAll("asford");
    expect(urls.map((u) => `${u.pathname}${u.search}`)).toEqual(["/api/search?q=asford&size=10"]);
    expect(groups.teams).toEqual([
      { id: "a".repeat(24), title: "Ashford Town", imageUrl: "/logo.svg", sportType: "football" },
    ]);
    expect(groups.leagues[0]?.imageUrl).toBe("/cup.svg");
    expect(groups.categories[0]?.imageUrl).toBeNull();
    expect(groups.sports).toEqual([{ sportType: "football", title: "Football", count: 7 }]);
  });

  it("gives the events list its first page from the same answer, one request for both", async () => {
    const urls = stubFetch();
    const client = new QueryClient();
    const options = eventMapOptionsOf(appConfigFixture());
    const [groups, events] = await Promise.all([
      client.fetchQuery(searchAllQueryOptions("asford", "guest")),
      client.fetchInfiniteQuery(searchEventsInfiniteQueryOptions("asford", "guest", options)),
    ]);
    expect(urls).toHaveLength(1);
    expect(groups.teams).toHaveLength(1);
    expect(events.pages[0]?.entries.map((e) => e.id)).toEqual([apiEvent()._id]);
    expect(events.pages[0]?.nextExists).toBe(true);
  });
});
