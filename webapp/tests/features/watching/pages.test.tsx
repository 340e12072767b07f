import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import EventPage from "@/features/watching/pages/EventPage";
import EventStatsPage from "@/features/watching/pages/EventStatsPage";
import RedirectEventPage from "@/features/watching/pages/RedirectEventPage";
import { json, stubFetch } from "../../support/fetchStub";
import { apiEvent, pageOf, testConfig } from "../../support/fixtures";
import { renderPage } from "../../support/renderPage";

const notFound = () => json({ error: true, message: "Event not found", messageErrorCode: "event_not_found" }, 404);

/** React logs errors a route's error element catches; these tests throw them on purpose. */
function quietRouteErrors() {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
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
    stubFetch((url) =>
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
    const calls = stubFetch(() => json({ content: apiEvent({ status: "archived" }), error: false, message: "" }));
    await renderPage(<EventStatsPage />, {
      path: "/events/stats/:eventId",
      route: "/events/stats/d2aefc184837b3fb7057f13a",
      config: testConfig({ match_stats: false }),
    });
    expect(await screen.findByText("Match stats are not available for this event.")).toBeTruthy();
    expect(calls.some((call) => call.url.pathname === "/api/event/stats")).toBe(false);
  });

  it("shows the no-stats state for an event without a stats feed", async () => {
    const calls = stubFetch(() =>
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
    stubFetch((url) => {
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
    const calls = stubFetch((url) =>
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
    stubFetch(notFound);
    await renderPage(<EventPage />, { path: "/events/:eventId", route: "/events/nope" });
    expect((await screen.findByRole("alert")).textContent).toBe("not found: event");
  });
});

describe("RedirectEventPage", () => {
  it("finds the event by reference id and replaces the URL with its page", async () => {
    const calls = stubFetch(() => json({ content: apiEvent(), error: false, message: "" }));
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
    stubFetch(notFound);
    await renderPage(<RedirectEventPage />, { path: "/redirect/events/:referenceId", route: "/redirect/events/nope" });
    expect((await screen.findByRole("alert")).textContent).toBe("not found: event");
  });
});
