import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { useInfiniteEventList } from "@/features/catalog/api/listEvents";
import { InfiniteEventList, uniqueEntries } from "@/features/catalog/components/InfiniteEventList";
import { ARCHIVED_EVENTS } from "@/features/catalog/lib/lists";
import { mapEvent } from "@/entities/event";
import { apiEvent, pageOf } from "../../support/fixtures";
import { renderPage } from "../../support/renderPage";

const json = (data: unknown) =>
  new Response(JSON.stringify(data), { status: 200, headers: { "Content-Type": "application/json" } });
const game = (n: number) =>
  apiEvent({ _id: `e${String(n).padStart(23, "0")}`, title: `Game ${n}`, status: "archived" });

/** Serves /event/list page by page from `pages`; records the page numbers asked for. */
function stubPages(pages: ReturnType<typeof game>[][]) {
  const asked: number[] = [];
  vi.stubGlobal("fetch", async (request: Request) => {
    const { page } = (await request.clone().json()) as { page: number };
    asked.push(page);
    return json(pageOf(pages[page] ?? [], page < pages.length - 1));
  });
  return asked;
}

function Archive({ headingLevel }: { headingLevel?: 2 | 3 }) {
  const query = useInfiniteEventList(ARCHIVED_EVENTS);
  return <InfiniteEventList query={query} empty="Nothing here" label="Archive" headingLevel={headingLevel} />;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("InfiniteEventList", () => {
  it("loads the next page with 'Load more' and hides the button after the last page", async () => {
    const asked = stubPages([[game(1), game(2)], [game(3)]]);
    await renderPage(<Archive />);

    const list = await screen.findByRole("list", { name: "Archive" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(2);

    fireEvent.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByRole("link", { name: /Game 3/ })).toBeTruthy();
    expect(within(list).getAllByRole("listitem")).toHaveLength(3);
    expect(asked).toEqual([0, 1]);
    await waitFor(() => expect(screen.queryByRole("button", { name: "Load more" })).toBeNull());
  });

  it("shows an event that moved to the next offset page only once", async () => {
    stubPages([
      [game(1), game(2)],
      [game(2), game(3)],
    ]);
    await renderPage(<Archive />);

    await screen.findByRole("link", { name: /Game 2/ });
    fireEvent.click(screen.getByRole("button", { name: "Load more" }));
    await screen.findByRole("link", { name: /Game 3/ });
    expect(screen.getAllByRole("link", { name: /Game 2/ })).toHaveLength(1);
  });

  it("titles cards as h2 in a page's main list and as h3 under a section heading", async () => {
    stubPages([[game(1)]]);
    const { unmount } = await renderPage(<Archive />);
    expect(await screen.findByRole("heading", { level: 2, name: "Game 1" })).toBeTruthy();
    unmount();

    await renderPage(<Archive headingLevel={3} />);
    expect(await screen.findByRole("heading", { level: 3, name: "Game 1" })).toBeTruthy();
  });

  it("shows the empty state when the first page has nothing", async () => {
    stubPages([[]]);
    await renderPage(<Archive />);
    expect(await screen.findByText("Nothing here")).toBeTruthy();
  });
});

describe("uniqueEntries", () => {
  it("keeps the first of each id, in page order", () => {
    const [a, b, c] = [1, 2, 3].map((n) => mapEvent(game(n)));
    const pages = [
      { page: 0, entries: [a, b], nextExists: true, totalCount: null },
      { page: 1, entries: [b, c], nextExists: false, totalCount: null },
    ];
    expect(uniqueEntries(pages).map((event) => event.title)).toEqual(["Game 1", "Game 2", "Game 3"]);
  });
});
