import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import SearchPage from "@/features/catalog/pages/SearchPage";
import { apiEvent, pageOf } from "../../../support/fixtures";
import { renderPage } from "../../../support/renderPage";

const json = (data: unknown, status = 200) =>
  new Response(JSON.stringify(data), { status, headers: { "Content-Type": "application/json" } });

interface Groups {
  teams?: unknown[];
  leagues?: unknown[];
  categories?: unknown[];
  sports?: unknown[];
}

/** A grouped search answer: the given groups and a first page of these events. */
function searchAnswer(groups: Groups = {}, events: ReturnType<typeof apiEvent>[] = [], nextExists = false) {
  return {
    content: {
      teams: [],
      leagues: [],
      categories: [],
      sports: [],
      ...groups,
      events: pageOf(events, nextExists).content,
    },
    error: false,
    message: "",
  };
}

const ashford = {
  _id: "a0a0a0a0a0a0a0a0a0a0a0a0",
  title: "Ashford Town",
  shortTitle: "ASH",
  logo: "/media/logos/ashford-town.svg",
  sportType: "football",
};
const npd = {
  _id: "b1b1b1b1b1b1b1b1b1b1b1b1",
  title: "Northern Premier Division",
  shortTitle: "NPD",
  imageUrl: null,
  sportType: "football",
};
const football = {
  _id: "c2c2c2c2c2c2c2c2c2c2c2c2",
  title: "Football",
  shortTitle: null,
  imageUrl: null,
  sportType: "football",
};

/** Records every call and answers with `answer(url)`. */
function stubApi(answer: (url: URL) => Response | Promise<Response>) {
  const calls: URL[] = [];
  vi.stubGlobal("fetch", async (request: Request) => {
    const url = new URL(request.url);
    calls.push(url);
    return answer(url);
  });
  return calls;
}

/** The search page's live region (loading notes and empty states are status regions too). */
const resultCount = () => document.querySelector<HTMLElement>(".search-page__count[role=status]")!;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("SearchPage", () => {
  it("searches as the viewer types, after a pause, and keeps the query in the URL", async () => {
    const calls = stubApi(() => json(searchAnswer({}, [apiEvent()])));
    const { router } = await renderPage(<SearchPage />, { path: "/search", route: "/search" });

    expect(screen.getByText(/Type a team, league or event name/)).toBeTruthy();
    fireEvent.change(screen.getByRole("searchbox", { name: "Search events and teams" }), {
      target: { value: "ashford" },
    });
    expect(calls).toHaveLength(0);

    expect(await screen.findByRole("link", { name: /Ashford Town vs Port Sable Albion/ })).toBeTruthy();
    expect(router.state.location.search).toBe("?q=ashford");
    // One request gives the groups and the first page of events.
    expect(calls.map((url) => [url.pathname, url.searchParams.get("q"), url.searchParams.get("size")])).toEqual([
      ["/api/search", "ashford", "10"],
    ]);
  });

  it("shows teams, leagues, categories and sports under their headings, each linking to its page", async () => {
    stubApi(() =>
      json(
        searchAnswer(
          {
            teams: [ashford],
            leagues: [npd],
            categories: [football],
            sports: [{ sportType: "football", title: "Football", count: 42 }],
          },
          [apiEvent()],
        ),
      ),
    );
    await renderPage(<SearchPage />, { path: "/search", route: "/search?q=asford" });

    const teams = await screen.findByRole("region", { name: "Teams" });
    expect(within(teams).getByRole("link", { name: "Ashford Town" }).getAttribute("href")).toBe(
      "/team/a0a0a0a0a0a0a0a0a0a0a0a0",
    );
    const leagues = screen.getByRole("region", { name: "Leagues" });
    expect(within(leagues).getByRole("link", { name: "Northern Premier Division" }).getAttribute("href")).toBe(
      "/league/b1b1b1b1b1b1b1b1b1b1b1b1",
    );
    const categories = screen.getByRole("region", { name: "Categories" });
    expect(within(categories).getByRole("link", { name: "Football" }).getAttribute("href")).toBe(
      "/category/c2c2c2c2c2c2c2c2c2c2c2c2",
    );
    const sports = screen.getByRole("region", { name: "Sports" });
    const sport = within(sports).getByRole("link", { name: /Football/ });
    expect(sport.getAttribute("href")).toBe("/live/football");
    expect(sport.textContent).toContain("42 events");
    const events = screen.getByRole("region", { name: "Events" });
    expect(within(events).getByRole("link", { name: /Ashford Town vs Port Sable Albion/ })).toBeTruthy();

    const headings = screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual(["Teams", "Leagues", "Categories", "Sports", "Events"]);
  });

  it("leaves out the groups nothing was found in", async () => {
    stubApi(() => json(searchAnswer({ teams: [ashford] }, [])));
    await renderPage(<SearchPage />, { path: "/search", route: "/search?q=ashford" });
    expect(await screen.findByRole("region", { name: "Teams" })).toBeTruthy();
    for (const name of ["Leagues", "Categories", "Sports", "Events"])
      expect(screen.queryByRole("region", { name })).toBeNull();
    expect(screen.queryByText(/No results/)).toBeNull();
  });

  it("goes to the team's page when a team is chosen", async () => {
    stubApi(() => json(searchAnswer({ teams: [ashford] })));
    const { router } = await renderPage(<SearchPage />, { path: "/search", route: "/search?q=asford" });
    fireEvent.click(await screen.findByRole("link", { name: "Ashford Town" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/team/a0a0a0a0a0a0a0a0a0a0a0a0"));
  });

  it("loads further events from the events search, after the grouped answer's first page", async () => {
    const calls = stubApi((url) =>
      url.pathname === "/api/search"
        ? json(searchAnswer({}, [apiEvent()], true))
        : json(pageOf([apiEvent({ _id: "dddddddddddddddddddddddd", title: "Ashford Town vs Oakham Vale" })])),
    );
    await renderPage(<SearchPage />, { path: "/search", route: "/search?q=ashford" });
    fireEvent.click(await screen.findByRole("button", { name: "Load more" }));
    expect(await screen.findByRole("link", { name: /Ashford Town vs Oakham Vale/ })).toBeTruthy();
    const more = calls.find((url) => url.pathname === "/api/event/search")!;
    expect([more.searchParams.get("q"), more.searchParams.get("page"), more.searchParams.get("size")]).toEqual([
      "ashford",
      "1",
      "10",
    ]);
  });

  it("announces how many results it found, groups included, politely", async () => {
    stubApi(() =>
      json(
        searchAnswer(
          { teams: [ashford] },
          [
            apiEvent(),
            apiEvent({ _id: "aaaaaaaaaaaaaaaaaaaaaaaa", title: "Riverside Rovers vs Harbor City Mariners" }),
          ],
          true,
        ),
      ),
    );
    await renderPage(<SearchPage />, { path: "/search", route: "/search?q=town" });
    const status = resultCount();
    expect(status.getAttribute("aria-live")).toBe("polite");
    await waitFor(() => expect(status.textContent).toBe("3 results More results load as you scroll."));
  });

  it("keeps the previous results on screen while the next query loads", async () => {
    let release: (() => void) | undefined;
    stubApi((url) => {
      if (url.searchParams.get("q") === "ashford") return json(searchAnswer({ teams: [ashford] }, [apiEvent()]));
      return new Promise<Response>((resolve) => {
        release = () => resolve(json(searchAnswer()));
      });
    });
    await renderPage(<SearchPage />, { path: "/search", route: "/search?q=ashford" });
    expect(await screen.findByRole("link", { name: /Ashford Town vs Port Sable Albion/ })).toBeTruthy();
    await waitFor(() => expect(resultCount().textContent).toBe("2 results"));

    fireEvent.change(screen.getByRole("searchbox", { name: "Search events and teams" }), {
      target: { value: "ashfordx" },
    });
    await waitFor(() => expect(resultCount().textContent).toBe(""));
    await waitFor(() => expect(release).toBeDefined());
    expect(screen.getByRole("link", { name: /Ashford Town vs Port Sable Albion/ })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Ashford Town" })).toBeTruthy();
    release!();
    expect(await screen.findByText(/No results for “ashfordx”/)).toBeTruthy();
    expect(screen.queryByRole("region", { name: "Teams" })).toBeNull();
  });

  it("shows an empty state when nothing matches", async () => {
    stubApi(() => json(searchAnswer()));
    await renderPage(<SearchPage />, { path: "/search", route: "/search?q=zzz" });
    expect(await screen.findByText(/No results for “zzz”/)).toBeTruthy();
  });
});
