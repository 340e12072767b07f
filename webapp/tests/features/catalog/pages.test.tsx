import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import ArchivePage from "@/features/catalog/pages/ArchivePage";
import LeaguePage from "@/features/catalog/pages/LeaguePage";
import LivePage from "@/features/catalog/pages/LivePage";
import { signIn, signOutQuietly } from "../../session/fakeServer";
import { json, stubFetch } from "../../support/fetchStub";
import { apiEvent, apiLeague, pageOf } from "../../support/fixtures";
import { renderPage } from "../../support/renderPage";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("ArchivePage", () => {
  it("sends the date filter of the URL as an event_date range and marks its tab as current", async () => {
    const calls = stubFetch(() => json(pageOf([apiEvent({ status: "archived" })])));
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
    stubFetch(() => json(pageOf([])));
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
      stubFetch(() => json(pageOf([])));
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
      const calls = stubFetch(() => json(pageOf([])));
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
    const calls = stubFetch((url) =>
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
    stubFetch((url) => (url.pathname === "/api/event/grouped_sport_count" ? json(counts) : json(pageOf([]))));
    await renderPage(<LivePage />, { path: "/live/:sportType?", route: "/live/hockey" });
    const tabs = await screen.findByRole("navigation", { name: "Sports" });
    expect(within(tabs).getByRole("link", { name: "hockey" }).getAttribute("aria-current")).toBe("page");
    expect(await screen.findByText(/Nothing is live/i)).toBeTruthy();
  });

  it("offers a signed-in viewer multiview, and a visitor nothing they would have to sign in for", async () => {
    stubFetch((url) => (url.pathname === "/api/event/grouped_sport_count" ? json(counts) : json(pageOf([]))));
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
    return stubFetch((url, body) => {
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
