import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { FollowedItem } from "@/entities/followed";
import { followedIdsOf } from "@/entities/followed";
import { orderFollowedEvents } from "@/features/catalog/api/listFollowedEvents";
import { clubPath, parseClub } from "@/features/catalog/api/listClubEvents";
import HomePage from "@/features/catalog/pages/HomePage";
import { mapEvent } from "@/entities/event";
import { sessionStore } from "@/session/store";
import { apiEvent, apiLeague, pageOf } from "../../support/fixtures";
import { renderPage } from "../../support/renderPage";
import { fakeServer, ok, signIn, signOutQuietly, USER, type RecordedCall } from "../../session/fakeServer";

const TEAM = "70e6dd179ad8f10284e10f4b";
const LEAGUE = "6a796e495b27d266f6b95fa0";
const CLUB = "4391e30622d95fee1b0c7021";

const followed = (id: string, type: FollowedItem["type"], title: string): FollowedItem => ({
  id,
  title,
  type,
  imageUrl: null,
  identitiesId: [],
});

const teamGame = apiEvent({
  _id: "aaaaaaaaaaaaaaaaaaaaaaa1",
  title: "Ashford Town vs Riverside Rovers",
  status: "upcoming",
  event_date: "2026-12-01T15:00:00Z",
});
const leagueGame = apiEvent({ _id: "aaaaaaaaaaaaaaaaaaaaaaa2", title: "Coastal derby", status: "live" });
const clubGame = apiEvent({
  _id: "aaaaaaaaaaaaaaaaaaaaaaa3",
  title: "Port Sable Albion vs Kestrel Point",
  status: "upcoming",
});
const halfWatched = apiEvent({ _id: "bbbbbbbbbbbbbbbbbbbbbbb1", title: "Last week's final", status: "archived" });

interface Filters {
  status?: string[];
  "search.teams.id"?: string[];
  "identities.id"?: string[];
}

/** The catalogue's lists by filter: the home page's own rails are empty but live (one game). */
function eventList(call: RecordedCall) {
  const filters = ((call.body as { filters?: Filters }).filters ?? {}) as Filters;
  if (filters["search.teams.id"]?.includes(TEAM)) return ok(pageOf([teamGame]).content);
  if (filters["identities.id"]?.includes(LEAGUE)) return ok(pageOf([leagueGame, teamGame]).content);
  if (filters["search.teams.id"]?.includes(CLUB)) return ok(pageOf([clubGame]).content);
  if (filters.status?.[0] === "live") return ok(pageOf([apiEvent({ title: "Everyone's live game" })]).content);
  return ok(pageOf([]).content);
}

function stubServer({ resume = [] as unknown[] } = {}) {
  return fakeServer({
    "POST /event/list": eventList,
    "POST /clip/list": () => ok(pageOf([]).content),
    "POST /identity/list": () => ok(pageOf([]).content),
    [`GET /identity/get_by_id/id/${CLUB}`]: () =>
      ok(apiLeague({ _id: CLUB, title: "Port Sable Albion", media_type: "team" })),
    "GET /user/get_continue_watching": () => ok(pageOf(resume).content),
    "POST /user/remove_playback_position": () => ok(null),
  });
}

function signInWith({ follows = [] as FollowedItem[], club = null as string | null } = {}) {
  signIn();
  sessionStore.setState({
    user: { ...USER, favoriteClubId: club },
    followed: Object.fromEntries(follows.map((item) => [item.id, item])),
  });
}

const regionNames = () => screen.getAllByRole("region").map((region) => region.getAttribute("aria-labelledby"));

afterEach(() => {
  vi.unstubAllGlobals();
  signOutQuietly();
});

describe("the home page's personal rails", () => {
  it("lead with the followed teams' games, what the viewer was watching and their club", async () => {
    const server = stubServer({
      resume: [
        {
          video: halfWatched,
          video_id: halfWatched._id,
          position: 1350,
          duration: 5400,
          updated: "2026-11-27T20:00:00Z",
        },
      ],
    });
    signInWith({
      follows: [followed(TEAM, "team", "Ashford Town"), followed(LEAGUE, "identity_item", "Coastal League")],
      club: `team|${CLUB}`,
    });
    await renderPage(<HomePage />);

    const teams = await screen.findByRole("region", { name: "Your teams" });
    // Live first, then by kick-off; a game found through the team and the league shows once.
    const cards = await within(teams).findAllByRole("link");
    expect(cards.map((card) => card.getAttribute("href"))).toEqual([
      `/events/${leagueGame._id}`,
      `/events/${teamGame._id}`,
    ]);

    const resume = await screen.findByRole("region", { name: "Continue watching" });
    expect(
      within(resume)
        .getByRole("link", { name: /Last week's final/ })
        .getAttribute("href"),
    ).toBe(`/events/${halfWatched._id}`);
    expect(within(resume).getByText("22:30 of 1:30:00 watched")).toBeTruthy();

    const club = await screen.findByRole("region", { name: "Your club: Port Sable Albion" });
    expect(await within(club).findByRole("link", { name: /Port Sable Albion vs Kestrel Point/ })).toBeTruthy();
    expect(
      within(club)
        .getByRole("link", { name: /See all/ })
        .getAttribute("href"),
    ).toBe(`/team/${CLUB}`);

    // They lead the page: the catalogue's own rails come after them.
    await screen.findByRole("region", { name: "Live now" });
    const order = screen.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent);
    expect(order.slice(0, 4)).toEqual(["Your teams", "Continue watching", "Your club: Port Sable Albion", "Live now"]);

    const teamCall = server.callsTo("/event/list").find((call) => JSON.stringify(call.body).includes(TEAM));
    expect(teamCall?.body).toMatchObject({
      order: "asc",
      filters: { "search.teams.id": [TEAM], media_type: ["event"], status: ["live", "upcoming"] },
    });
    expect(regionNames()).toHaveLength(4);
  });

  it("takes a video off Continue watching", async () => {
    const entry = {
      video: halfWatched,
      video_id: halfWatched._id,
      position: 1350,
      duration: 5400,
      updated: "2026-11-27T20:00:00Z",
    };
    let resume: unknown[] = [entry];
    const server = fakeServer({
      "POST /event/list": eventList,
      "POST /clip/list": () => ok(pageOf([]).content),
      "POST /identity/list": () => ok(pageOf([]).content),
      "GET /user/get_continue_watching": () => ok(pageOf(resume).content),
      "POST /user/remove_playback_position": () => {
        resume = [];
        return ok(null);
      },
    });
    signInWith();
    await renderPage(<HomePage />);
    const rail = await screen.findByRole("region", { name: "Continue watching" });
    fireEvent.click(within(rail).getByRole("button", { name: "Remove Last week's final from Continue watching" }));
    await waitFor(() => expect(screen.queryByRole("region", { name: "Continue watching" })).toBeNull());
    expect(server.callsTo("/user/remove_playback_position")[0].body).toEqual({ video_id: halfWatched._id });
  });

  it("leave the home page as it was for a signed-in viewer with no follows, no club and nothing to continue", async () => {
    const server = stubServer();
    signInWith();
    await renderPage(<HomePage />);
    await screen.findByRole("region", { name: "Live now" });
    await waitFor(() => expect(server.callsTo("/user/get_continue_watching")).toHaveLength(1));
    expect(screen.queryByRole("region", { name: "Your teams" })).toBeNull();
    expect(screen.queryByRole("region", { name: "Continue watching" })).toBeNull();
    expect(screen.queryByRole("region", { name: /Your club/ })).toBeNull();
    // No list call beyond the home page's own rails.
    expect(server.callsTo("/event/list")).toHaveLength(4);
  });

  it("are neither shown nor asked for for an anonymous visitor", async () => {
    const server = stubServer();
    await renderPage(<HomePage />);
    await screen.findByRole("region", { name: "Live now" });
    expect(server.calls.filter((call) => call.path.startsWith("/user/"))).toEqual([]);
    expect(server.callsTo("/event/list")).toHaveLength(4);
    expect(screen.queryByRole("region", { name: "Continue watching" })).toBeNull();
  });
});

describe("Your teams and the favourite club", () => {
  it("asks for leagues and categories apart from teams, 50 ids at most each", () => {
    const items = [
      followed("b".repeat(24), "team", "B"),
      followed("a".repeat(24), "identity_item", "A"),
      followed("c".repeat(24), "identity", "C"),
      ...Array.from({ length: 60 }, (_, i) => followed(i.toString(16).padStart(24, "0"), "team", `T${i}`)),
    ];
    const ids = followedIdsOf(items);
    expect(ids.identities).toEqual(["a".repeat(24), "c".repeat(24)]);
    expect(ids.teams).toHaveLength(50);
  });

  it("orders live games first, then by kick-off, each once, up to the size", () => {
    const later = mapEvent(apiEvent({ _id: "1".repeat(24), status: "upcoming", event_date: "2026-12-02T15:00:00Z" }));
    const sooner = mapEvent(apiEvent({ _id: "2".repeat(24), status: "upcoming", event_date: "2026-12-01T15:00:00Z" }));
    const live = mapEvent(apiEvent({ _id: "3".repeat(24), status: "live", event_date: "2026-11-28T15:00:00Z" }));
    expect(orderFollowedEvents([later, sooner, live, sooner], 12).map((event) => event.id)).toEqual([
      live.id,
      sooner.id,
      later.id,
    ]);
    expect(orderFollowedEvents([later, sooner, live], 2)).toHaveLength(2);
  });

  it("reads the favourite club and links to its page", () => {
    expect(parseClub(`team|${CLUB}`)).toEqual({ type: "team", id: CLUB });
    expect(parseClub(null)).toBeNull();
    expect(parseClub("player|123")).toBeNull();
    expect(clubPath({ type: "team", id: CLUB }, true)).toBe(`/team/${CLUB}`);
    expect(clubPath({ type: "team", id: CLUB }, false)).toBeUndefined();
    expect(clubPath({ type: "identity_item", id: LEAGUE }, true)).toBe(`/league/${LEAGUE}`);
    expect(clubPath({ type: "identity", id: LEAGUE }, true)).toBe(`/category/${LEAGUE}`);
  });
});
