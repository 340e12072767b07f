import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import HomePage from "@/features/catalog/pages/HomePage";
import { HOME_RAILS } from "@/features/catalog/homeRails";
import { apiEvent, apiLeague, pageOf } from "../../support/fixtures";
import { renderPage } from "../../support/renderPage";

interface Answers {
  live?: unknown[];
  upcoming?: unknown[];
  latest?: unknown[];
  channels?: unknown[];
  highlights?: unknown[];
  leagues?: unknown[];
}

/** Answers the home page's five calls like the server would, by endpoint and status filter. */
function stubApi(answers: Answers) {
  const calls: { path: string; body: unknown }[] = [];
  vi.stubGlobal("fetch", async (request: Request) => {
    const path = new URL(request.url).pathname;
    const body = request.method === "POST" ? await request.clone().json() : undefined;
    calls.push({ path, body });
    const json = (data: unknown) =>
      new Response(JSON.stringify(data), { status: 200, headers: { "Content-Type": "application/json" } });
    if (path === "/api/event/list") {
      const status = (body as { filters: { status: string[] } }).filters.status[0];
      const entries =
        { live: answers.live, upcoming: answers.upcoming, channel: answers.channels }[status] ?? answers.latest;
      return json(pageOf(entries ?? []));
    }
    if (path === "/api/clip/list") return json(pageOf(answers.highlights ?? []));
    if (path === "/api/identity/list") return json(pageOf(answers.leagues ?? []));
    return new Response(JSON.stringify({ error: true, message: "Not found", messageErrorCode: "not_found" }), {
      status: 404,
    });
  });
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("HomePage", () => {
  it("renders the rails from the API answers, each with a 'see all' link", async () => {
    const calls = stubApi({
      live: [apiEvent()],
      upcoming: [
        apiEvent({
          _id: "aaaaaaaaaaaaaaaaaaaaaaaa",
          title: "Riverside Rovers vs Harbor City Mariners",
          status: "upcoming",
        }),
      ],
      highlights: [
        apiEvent({
          _id: "6191dd3e9543ec5980ab6fa6",
          title: "Key moments: Kestrel Point Falcons vs Polar Ridge Owls",
          media_type: "highlight",
          status: "vod",
          duration: 62,
        }),
      ],
      leagues: [apiLeague()],
    });
    await renderPage(<HomePage />);

    const live = await screen.findByRole("region", { name: "Live now" });
    expect(
      (await within(live).findByRole("link", { name: /Ashford Town vs Port Sable Albion/ })).getAttribute("href"),
    ).toBe("/events/d2aefc184837b3fb7057f13a");
    expect(within(live).getByRole("link", { name: "See all: Live now" }).getAttribute("href")).toBe("/live");

    const upcoming = await screen.findByRole("region", { name: "Coming up" });
    expect(
      await within(upcoming).findByRole("link", { name: /Riverside Rovers vs Harbor City Mariners/ }),
    ).toBeTruthy();
    expect(within(upcoming).getByRole("link", { name: "See all: Coming up" }).getAttribute("href")).toBe("/upcoming");

    const highlights = await screen.findByRole("region", { name: "Highlights" });
    expect((await within(highlights).findByRole("link", { name: /Key moments/ })).getAttribute("href")).toBe(
      "/events/6191dd3e9543ec5980ab6fa6?media_type=highlight",
    );
    expect(within(highlights).getByRole("link", { name: "See all: Highlights" }).getAttribute("href")).toBe(
      "/highlight",
    );

    const leagues = await screen.findByRole("region", { name: "Leagues" });
    expect((await within(leagues).findByRole("link", { name: "Coastal Basketball League" })).getAttribute("href")).toBe(
      "/league/6a796e495b27d266f6b95fa0",
    );

    // The latest and channels rails had nothing: they are left out rather than shown empty.
    expect(screen.queryByRole("region", { name: "Latest videos" })).toBeNull();
    expect(screen.queryByRole("region", { name: "Channels" })).toBeNull();

    const liveCall = calls.find(
      (call) => call.path === "/api/event/list" && JSON.stringify(call.body).includes('"live"'),
    );
    expect(liveCall?.body).toMatchObject({
      page: 0,
      size: 12,
      sort: "event_date",
      order: "desc",
      next: true,
      filters: { status: ["live"], media_type: ["event"] },
    });
    expect(calls.find((call) => call.path === "/api/identity/list")?.body).toMatchObject({
      filters: { media_type: "identity_item", archived: false },
    });
  });

  it("shows a Channels rail whose cards lead to each channel's page", async () => {
    const calls = stubApi({
      channels: [
        apiEvent({
          _id: "c0ffee0000000000000000aa",
          title: "Touchline 24",
          status: "channel",
          eventType: "channel",
          eventTeams: null,
        }),
      ],
    });
    await renderPage(<HomePage />);

    const channels = await screen.findByRole("region", { name: "Channels" });
    expect((await within(channels).findByRole("link", { name: /Touchline 24/ })).getAttribute("href")).toBe(
      "/channels/c0ffee0000000000000000aa",
    );
    expect(within(channels).queryByRole("link", { name: /See all/ })).toBeNull();
    expect(
      calls.find((call) => call.path === "/api/event/list" && JSON.stringify(call.body).includes('"channel"'))?.body,
    ).toMatchObject({ size: 12, sort: "order", order: "asc" });
  });

  it("refreshes the Live now rail every minute", async () => {
    stubApi({ live: [apiEvent()] });
    const { queryClient } = await renderPage(<HomePage />);
    await screen.findByRole("region", { name: "Live now" });
    const live = queryClient.getQueryCache().findAll({ queryKey: ["catalog", "events", HOME_RAILS.live] });
    expect(live).toHaveLength(1);
    expect((live[0].options as { refetchInterval?: unknown }).refetchInterval).toBe(60_000);
    const upcoming = queryClient.getQueryCache().findAll({ queryKey: ["catalog", "events", HOME_RAILS.upcoming] });
    expect((upcoming[0].options as { refetchInterval?: unknown }).refetchInterval).toBe(false);
  });

  it("shows an empty state with a way to the archive when every rail is empty", async () => {
    stubApi({});
    await renderPage(<HomePage />);

    expect(await screen.findByText(/There is nothing to watch yet/)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Browse the archive" }).getAttribute("href")).toBe("/archive");
    expect(screen.queryByRole("region")).toBeNull();
  });

  it("offers a retry when a rail fails to load", async () => {
    vi.stubGlobal("fetch", async (request: Request) => {
      const path = new URL(request.url).pathname;
      if (path === "/api/clip/list")
        return new Response(
          JSON.stringify({ error: true, message: "Database unavailable", messageErrorCode: "service_unavailable" }),
          { status: 503, headers: { "Content-Type": "application/json" } },
        );
      return new Response(JSON.stringify(pageOf(path === "/api/event/list" ? [apiEvent()] : [])), {
        status: 200,
        headers: { "Content-Type": "application/json" },
      });
    });
    await renderPage(<HomePage />);

    const highlights = await screen.findByRole("region", { name: "Highlights" });
    expect(await within(highlights).findByRole("alert")).toBeTruthy();
    expect(within(highlights).getByRole("button", { name: "Try again" })).toBeTruthy();
  });
});
