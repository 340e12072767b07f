import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import ArchivePage from "@/features/catalog/pages/ArchivePage";
import EventPage from "@/features/catalog/pages/EventPage";
import RedirectEventPage from "@/features/catalog/pages/RedirectEventPage";
import SearchPage from "@/features/catalog/pages/SearchPage";
import { apiEvent, pageOf } from "./fixtures";
import { renderPage } from "./renderPage";

const json = (data: unknown, status = 200) => new Response(JSON.stringify(data), { status, headers: { "Content-Type": "application/json" } });
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
    const body = calls.find((call) => call.url.pathname === "/api/event/list")!.body as { filters: { status: string[]; event_date: string } };
    expect(body.filters.status).toEqual(["archived"]);
    const [from, to] = body.filters.event_date.split("~").map(Number);
    expect(to - from).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(new Date(from).getSeconds()).toBe(1);
  });

  it("says so when the period has no events", async () => {
    stubApi(() => json(pageOf([])));
    await renderPage(<ArchivePage />, { path: "/archive", route: "/archive?date=yesterday" });
    expect(await screen.findByText("No past events in this period.")).toBeTruthy();
  });
});

describe("SearchPage", () => {
  it("searches as the viewer types, after a pause, and keeps the query in the URL", async () => {
    const calls = stubApi((url) => (url.pathname === "/api/event/search" ? json(pageOf([apiEvent()])) : notFound()));
    const { router } = await renderPage(<SearchPage />, { path: "/search", route: "/search" });

    expect(screen.getByText(/Type a team, league or event name/)).toBeTruthy();
    fireEvent.change(screen.getByRole("searchbox", { name: "Search events and teams" }), { target: { value: "ashford" } });
    expect(calls).toHaveLength(0);

    expect(await screen.findByRole("link", { name: /Ashford Town vs Port Sable Albion/ })).toBeTruthy();
    expect(router.state.location.search).toBe("?q=ashford");
    expect(calls.map((call) => call.url.searchParams.get("q"))).toEqual(["ashford"]);
  });

  it("shows an empty state when nothing matches", async () => {
    stubApi(() => json(pageOf([])));
    await renderPage(<SearchPage />, { path: "/search", route: "/search?q=zzz" });
    expect(await screen.findByText(/No results for “zzz”/)).toBeTruthy();
  });
});

describe("EventPage", () => {
  it("shows the event's title, teams, league and that it is free to watch", async () => {
    stubApi((url) => {
      if (url.pathname.startsWith("/api/event/get_by_id/")) return json({ content: apiEvent(), error: false, message: "" });
      if (url.pathname === "/api/event/get_commerce_options") {
        return json({ content: { eventId: "d2aefc184837b3fb7057f13a", availableForUser: true, availableInUserRegion: true, commerceCoverage: ["free"], products: [] }, error: false, message: "" });
      }
      return json(pageOf([]));
    });
    await renderPage(<EventPage />, { path: "/events/:eventId", route: "/events/d2aefc184837b3fb7057f13a" });

    expect(await screen.findByRole("heading", { level: 1, name: "Ashford Town vs Port Sable Albion" })).toBeTruthy();
    expect(screen.getByRole("link", { name: /Ashford Town/ }).getAttribute("href")).toBe("/team/70e6dd179ad8f10284e10f4b");
    expect(screen.getByRole("link", { name: "Northern Premier Division" }).getAttribute("href")).toBe("/league/8e812cbf4f122690fb37e27f");
    expect(await screen.findByText("Free to watch")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Match stats" }).getAttribute("href")).toBe("/events/stats/d2aefc184837b3fb7057f13a");
  });

  it("asks the clip endpoint for highlights", async () => {
    const calls = stubApi((url) =>
      url.pathname.startsWith("/api/clip/get_by_id/") ? json({ content: apiEvent({ media_type: "highlight", status: "vod" }), error: false, message: "" }) : json(pageOf([])),
    );
    await renderPage(<EventPage />, { path: "/events/:eventId", route: "/events/6191dd3e9543ec5980ab6fa6?media_type=highlight" });
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
    const { router } = await renderPage(<RedirectEventPage />, { path: "/redirect/events/:referenceId", route: "/redirect/events/ref-ashford-town-port-sable-albion-5" });

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
