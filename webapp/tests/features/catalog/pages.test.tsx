import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import ArchivePage from "@/features/catalog/pages/ArchivePage";
import EventPage from "@/features/catalog/pages/EventPage";
import EventStatsPage from "@/features/catalog/pages/EventStatsPage";
import LeaguePage from "@/features/catalog/pages/LeaguePage";
import LivePage from "@/features/catalog/pages/LivePage";
import RedirectEventPage from "@/features/catalog/pages/RedirectEventPage";
import { signIn, signOutQuietly } from "../../session/fakeServer";
import { apiEvent, apiLeague, pageOf, testConfig } from "./fixtures";
import { renderPage } from "./renderPage";

const json = (data: unknown, status = 200) =>
  new Response(JSON.stringify(data), { status, headers: { "Content-Type": "application/json" } });
const notFound = () => json({ error: true, message: "Event not found", messageErrorCode: "event_not_found" }, 404);

/** React logs errors a route's error element catches; these tests throw them on purpose. */
function quietRouteErrors() {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
}

/** Records every call and answers with `answer(url, body)`. */
function stubApi(answer: (url: URL, body: unknown) => Response) {
  const calls: { url: URL; body: unknown }[] = [];
  vi.stubGlobal("fetch", async (request: Request) => {
    const url = new URL(request.url);
    const body = request.method === "POST" ? await request.clone().json() : undefined;
    calls.push({ url, body });
    return answer(url, body);
  });
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("ArchivePage", () => {
  it("sends the date filter of the URL as an event_date range and marks its tab as current", async () => {
    const calls = stubApi(() => json(pageOf([apiEvent({ status: "archived" })])));
    await renderPage(<ArchivePage />, { path: "/archive", route: "/archive?date=past_7_days" });

    expect(await screen.findByRole("link", { name: /Ashford Town vs Port Sable Albion/ })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Past 7 days" }).getAttribute("aria-current")).toBe("page");
    const body = calls.find((call) => call.url.pathname === "/api/event/list")!.body as {
      filters: { status: string[]; event_date: string };
    };
    expect(body.filters.status).toEqual(["archived"]);
    const [from, to] = body.filters.event_date.split("~").map(Number);
    expect(to - from).toBe(7 * 86_400_000);
    expect(new Date(to).getSeconds()).toBe(1);
  });

  it("says so when the period has no events", async () => {
    stubApi(() => json(pageOf([])));
    await renderPage(<ArchivePage />, { path: "/archive", route: "/archive?date=yesterday" });
    expect(await screen.findByText("No past events in this period.")).toBeTruthy();
  });

  it("brings the current date tab into view in its sideways-scrolling row", async () => {
    const scrolled: { text: string | null; options: unknown }[] = [];
    const scrollIntoView = vi.fn(function (this: HTMLElement, options?: boolean | ScrollIntoViewOptions) {
      scrolled.push({ text: this.textContent, options });
    });
    Object.defineProperty(HTMLElement.prototype, "scrollIntoView", { value: scrollIntoView, configurable: true });
    try {
      stubApi(() => json(pageOf([])));
      await renderPage(<ArchivePage />, { path: "/archive", route: "/archive?date=past_90_days" });
      await screen.findByText("No past events in this period.");
      expect(scrolled).toEqual([{ text: "Past 90 days", options: { inline: "nearest", block: "nearest" } }]);
    } finally {
      delete (HTMLElement.prototype as Partial<HTMLElement>).scrollIntoView;
    }
  });

  it("asks the same question when the viewer comes back within the minute", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const calls = stubApi(() => json(pageOf([])));
      vi.setSystemTime(new Date(2026, 10, 23, 15, 42, 5));
      const first = await renderPage(<ArchivePage />, { path: "/archive", route: "/archive?date=today" });
      await screen.findByText("No past events in this period.");
      first.unmount();
      vi.setSystemTime(new Date(2026, 10, 23, 15, 42, 50));
      await renderPage(<ArchivePage />, { path: "/archive", route: "/archive?date=today" });
      await screen.findByText("No past events in this period.");
      const ranges = calls.map((call) => (call.body as { filters: { event_date: string } }).filters.event_date);
      expect(ranges).toEqual([
        `${new Date(2026, 10, 23, 0, 0, 1).getTime()}~${new Date(2026, 10, 23, 15, 42, 1).getTime()}`,
        ranges[0],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("LivePage", () => {
  const counts = {
    content: {
      entries: [
        { sportType: "football", title: "Football", count: 3 },
        { sportType: "basketball", title: "Basketball", count: 1 },
      ],
      totalCount: 4,
    },
    error: false,
    message: "",
  };

  it("offers one tab per sport with something live and narrows the list to the sport of the URL", async () => {
    const calls = stubApi((url) =>
      url.pathname === "/api/event/grouped_sport_count" ? json(counts) : json(pageOf([apiEvent()])),
    );
    await renderPage(<LivePage />, { path: "/live/:sportType?", route: "/live/football" });

    const tabs = await screen.findByRole("navigation", { name: "Sports" });
    expect(await within(tabs).findByRole("link", { name: /Football/ })).toBeTruthy();
    expect(
      within(tabs)
        .getByRole("link", { name: /Football/ })
        .getAttribute("aria-current"),
    ).toBe("page");
    expect(
      within(tabs)
        .getByRole("link", { name: /Basketball/ })
        .getAttribute("href"),
    ).toBe("/live/basketball");
    expect(within(tabs).getByRole("link", { name: "All sports" }).getAttribute("href")).toBe("/live");
    expect(await screen.findByRole("heading", { level: 2, name: "Ashford Town vs Port Sable Albion" })).toBeTruthy();
    const list = calls.find((call) => call.url.pathname === "/api/event/list")!.body as {
      filters: Record<string, unknown>;
    };
    expect(list.filters).toMatchObject({ status: ["live"], sportType: ["football"] });
    expect(
      calls.find((call) => call.url.pathname === "/api/event/grouped_sport_count")!.url.searchParams.getAll("status[]"),
    ).toEqual(["live"]);
  });

  it("keeps a tab for the sport of the URL when nothing of it is live", async () => {
    stubApi((url) => (url.pathname === "/api/event/grouped_sport_count" ? json(counts) : json(pageOf([]))));
    await renderPage(<LivePage />, { path: "/live/:sportType?", route: "/live/hockey" });
    const tabs = await screen.findByRole("navigation", { name: "Sports" });
    expect(within(tabs).getByRole("link", { name: "hockey" }).getAttribute("aria-current")).toBe("page");
    expect(await screen.findByText(/Nothing is live/i)).toBeTruthy();
  });

  it("offers a signed-in viewer multiview, and a visitor nothing they would have to sign in for", async () => {
    stubApi((url) => (url.pathname === "/api/event/grouped_sport_count" ? json(counts) : json(pageOf([]))));
    const multiview = /in Multiview/;
    await renderPage(<LivePage />, { path: "/live/:sportType?", route: "/live" });
    await screen.findByText(/Nothing is live/i);
    expect(screen.queryByRole("link", { name: multiview })).toBeNull();
    cleanup();

    signIn();
    try {
      await renderPage(<LivePage />, { path: "/:locale/live/:sportType?", route: "/de/live" });
      const link = await screen.findByRole("link", { name: multiview });
      expect(link.getAttribute("href")).toBe("/de/multiview");
    } finally {
      signOutQuietly();
    }
  });
});

describe("LeaguePage", () => {
  const league = apiLeague();
  const soonGame = (n: number) =>
    apiEvent({ _id: `s${String(n).padStart(23, "0")}`, title: `Coming game ${n}`, status: "upcoming" });

  function stubLeague() {
    return stubApi((url, body) => {
      if (url.pathname.startsWith("/api/identity/get_by_id/"))
        return json({ content: league, error: false, message: "" });
      if (url.pathname === "/api/identity/list") return json(pageOf([]));
      const { filters, page } = body as { filters: { status: string[] }; page: number };
      if (filters.status.includes("upcoming"))
        return json(pageOf(page === 0 ? [soonGame(1), soonGame(2)] : [soonGame(3)], page === 0));
      return json(pageOf([apiEvent({ _id: "p00000000000000000000001", title: "Old game", status: "archived" })]));
    });
  }

  it("lists the league's live and upcoming events, with more on demand, then its past events", async () => {
    const calls = stubLeague();
    await renderPage(<LeaguePage />, { path: "/league/:leagueId", route: `/league/${league._id}` });

    expect(await screen.findByRole("heading", { level: 1, name: "Coastal Basketball League" })).toBeTruthy();
    const soon = await screen.findByRole("region", { name: "Live and upcoming" });
    expect(await within(soon).findByRole("link", { name: /Coming game 2/ })).toBeTruthy();
    fireEvent.click(within(soon).getByRole("button", { name: "Load more" }));
    expect(await within(soon).findByRole("link", { name: /Coming game 3/ })).toBeTruthy();
    await waitFor(() => expect(within(soon).queryByRole("button", { name: "Load more" })).toBeNull());

    const past = screen.getByRole("region", { name: "Past events" });
    expect(await within(past).findByRole("heading", { level: 3, name: "Old game" })).toBeTruthy();

    const soonCalls = calls.filter(
      (call) => call.url.pathname === "/api/event/list" && JSON.stringify(call.body).includes("upcoming"),
    );
    expect(soonCalls.map((call) => (call.body as { page: number }).page)).toEqual([0, 1]);
    expect(soonCalls[0].body).toMatchObject({
      size: 12,
      filters: { "identities.id": [league._id], status: ["live", "upcoming"] },
    });
  });
});

describe("EventStatsPage", () => {
  const stats = {
    content: {
      vidswap: {
        "game-scores": {
          homeTeam: { name: "Ashford Town", score: 2, periods: [1, 1] },
          awayTeam: { name: "Port Sable Albion", score: 1, periods: [0, 1] },
        },
        "game-overview": {
          groups: [
            {
              name: "Partner Match Stats",
              metrics: [
                {
                  shortName: "POS",
                  name: "Possession",
                  filterId: "possession",
                  homeTeamValue: { text: "55%", number: 55 },
                  awayTeamValue: { text: "45%", number: 45 },
                },
              ],
            },
          ],
        },
      },
    },
    error: false,
    message: "",
  };

  it("shows the metrics under the translated heading, each row named by the full metric name", async () => {
    stubApi((url) =>
      url.pathname === "/api/event/stats"
        ? json(stats)
        : json({ content: apiEvent({ status: "archived" }), error: false, message: "" }),
    );
    await renderPage(<EventStatsPage />, {
      path: "/events/stats/:eventId",
      route: "/events/stats/d2aefc184837b3fb7057f13a",
    });

    expect(await screen.findByRole("heading", { level: 2, name: "Match stats" })).toBeTruthy();
    expect(screen.queryByText("Partner Match Stats")).toBeNull();
    expect(screen.getByRole("rowheader", { name: "Possession" })).toBeTruthy();
  });

  it("shows the no-stats state without asking for stats when the app has match stats off", async () => {
    const calls = stubApi(() => json({ content: apiEvent({ status: "archived" }), error: false, message: "" }));
    await renderPage(<EventStatsPage />, {
      path: "/events/stats/:eventId",
      route: "/events/stats/d2aefc184837b3fb7057f13a",
      config: testConfig({ match_stats: false }),
    });
    expect(await screen.findByText("Match stats are not available for this event.")).toBeTruthy();
    expect(calls.some((call) => call.url.pathname === "/api/event/stats")).toBe(false);
  });

  it("shows the no-stats state for an event without a stats feed", async () => {
    const calls = stubApi(() =>
      json({
        content: apiEvent({ status: "archived", integrations: { vidswap: { enabled: false, id: null } } }),
        error: false,
        message: "",
      }),
    );
    await renderPage(<EventStatsPage />, {
      path: "/events/stats/:eventId",
      route: "/events/stats/d2aefc184837b3fb7057f13a",
    });
    expect(await screen.findByText("Match stats are not available for this event.")).toBeTruthy();
    expect(calls.some((call) => call.url.pathname === "/api/event/stats")).toBe(false);
  });
});

describe("EventPage", () => {
  it("shows the event's title, teams, league and that it is free to watch", async () => {
    stubApi((url) => {
      if (url.pathname.startsWith("/api/event/get_by_id/"))
        return json({ content: apiEvent(), error: false, message: "" });
      if (url.pathname === "/api/event/get_commerce_options") {
        return json({
          content: {
            eventId: "d2aefc184837b3fb7057f13a",
            availableForUser: true,
            availableInUserRegion: true,
            commerceCoverage: ["free"],
            products: [],
          },
          error: false,
          message: "",
        });
      }
      return json(pageOf([]));
    });
    await renderPage(<EventPage />, { path: "/events/:eventId", route: "/events/d2aefc184837b3fb7057f13a" });

    expect(await screen.findByRole("heading", { level: 1, name: "Ashford Town vs Port Sable Albion" })).toBeTruthy();
    expect(screen.getByRole("link", { name: /Ashford Town/ }).getAttribute("href")).toBe(
      "/team/70e6dd179ad8f10284e10f4b",
    );
    expect(screen.getByRole("link", { name: "Northern Premier Division" }).getAttribute("href")).toBe(
      "/league/8e812cbf4f122690fb37e27f",
    );
    expect(await screen.findByText("Free to watch")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Match stats" }).getAttribute("href")).toBe(
      "/events/stats/d2aefc184837b3fb7057f13a",
    );
  });

  it("asks the clip endpoint for highlights", async () => {
    const calls = stubApi((url) =>
      url.pathname.startsWith("/api/clip/get_by_id/")
        ? json({ content: apiEvent({ media_type: "highlight", status: "vod" }), error: false, message: "" })
        : json(pageOf([])),
    );
    await renderPage(<EventPage />, {
      path: "/events/:eventId",
      route: "/events/6191dd3e9543ec5980ab6fa6?media_type=highlight",
    });
    await screen.findByRole("heading", { level: 1 });
    const lookup = calls.find((call) => call.url.pathname.startsWith("/api/clip/get_by_id/"))!;
    expect(lookup.url.pathname).toBe("/api/clip/get_by_id/id/6191dd3e9543ec5980ab6fa6");
    expect(lookup.url.searchParams.get("media_type")).toBe("highlight");
  });

  it("shows the event not-found screen for an unknown id", async () => {
    quietRouteErrors();
    stubApi(notFound);
    await renderPage(<EventPage />, { path: "/events/:eventId", route: "/events/nope" });
    expect((await screen.findByRole("alert")).textContent).toBe("not found: event");
  });
});

describe("RedirectEventPage", () => {
  it("finds the event by reference id and replaces the URL with its page", async () => {
    const calls = stubApi(() => json({ content: apiEvent(), error: false, message: "" }));
    const { router } = await renderPage(<RedirectEventPage />, {
      path: "/redirect/events/:referenceId",
      route: "/redirect/events/ref-ashford-town-port-sable-albion-5",
    });

    await waitFor(() => expect(router.state.location.pathname).toBe("/events/d2aefc184837b3fb7057f13a"));
    expect(router.state.historyAction).toBe("REPLACE");
    expect(calls[0].url.pathname).toBe("/api/event/get_by_id/id/ref-ashford-town-port-sable-albion-5");
    expect(calls[0].url.searchParams.get("idType")).toBe("reference_id");
  });

  it("shows the event not-found screen when no event has that reference", async () => {
    quietRouteErrors();
    stubApi(notFound);
    await renderPage(<RedirectEventPage />, { path: "/redirect/events/:referenceId", route: "/redirect/events/nope" });
    expect((await screen.findByRole("alert")).textContent).toBe("not found: event");
  });
});
