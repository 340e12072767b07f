import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { components } from "@/api/schema.gen";
import type { CatalogEvent } from "@/entities/event";
import { MultiviewPage } from "@/features/watching/multiview/MultiviewPage";
import { setSpoilerFree } from "@/session/spoilers";
import { apiEvent, pageOf, testConfig } from "../../../support/fixtures";
import { json, stubApi } from "../../../support/fetchStub";
import { setUpEnglish } from "../../../support/i18n";
import { renderWithApp } from "../../../ui/renderWithApp";

type ApiEvent = components["schemas"]["Event"];

const A = "d2aefc184837b3fb7057f13a";
const B = "ce31d8da7950a1cab57cf5c4";
const C = "566bdb368690bd3ae1fd9ebf";
const D = "fb5337bd0de4cb1b9b3600d3";
const LOCKED = "bc7aa5a21bf706526bc9e7ab";

const stream = (id: string) => `/media/live/${id}/from-1795000000/index.m3u8?token=1795003600.AAAAAAAAAAAAAAAAAAAAAA`;
const live = (id: string, title: string, more: Partial<ApiEvent> = {}): ApiEvent =>
  apiEvent({
    _id: id,
    title,
    content: { HLSStream: stream(id), PanoStream: null, PosterH: null, MezzanineVideo: null, EPG: null },
    ...more,
  });
const EVENTS: Record<string, ApiEvent> = {
  [A]: live(A, "Ashford Town vs Port Sable Albion"),
  [B]: live(B, "Morning Skate: Northfield Wolves", { eventTeams: undefined, gameType: "other" }),
  [C]: live(C, "Northpoint Navigators vs Baymouth Whalers"),
  [D]: live(D, "Brightwater Harriers vs Redcliff City"),
  [LOCKED]: live(LOCKED, "Summit Ridge Peaks vs Canyon Falls Coyotes", {
    availableForUser: false,
    commerce_type: "commerce_subscription-basic_media",
    commerceCoverage: ["subscription"],
    content: { HLSStream: null, PanoStream: null, PosterH: null, MezzanineVideo: null, EPG: null },
  }),
};

/** The live list, each event's answer and a 3–1 score for every game. */
function stubServer() {
  return stubApi({
    "POST /api/event/list": () => json(pageOf(Object.values(EVENTS))),
    "GET /api/event/get_by_id/id/{id}": () => json({ error: true }, 500),
    ...Object.fromEntries(
      Object.entries(EVENTS).map(([id, event]) => [
        `GET /api/event/get_by_id/id/${id}`,
        () => json({ content: event, error: false, message: "" }),
      ]),
    ),
    "GET /api/event/stats": () =>
      json({
        content: {
          vidswap: {
            "game-scores": {
              homeTeam: { name: "Home", shortName: "HOM", score: 3, periods: [3] },
              awayTeam: { name: "Away", shortName: "AWY", score: 1, periods: [1] },
            },
          },
        },
        error: false,
        message: "",
      }),
  });
}

/** Stands in for the event page's paywall, which the app hands the page. */
const Paywall = ({ event }: { event: CatalogEvent }) => <p>Paywall of {event.title}</p>;

function renderMultiview(url: string) {
  return renderWithApp(<MultiviewPage Paywall={Paywall} />, {
    url,
    path: "/multiview",
    config: testConfig({ match_stats: true }),
  }).router;
}

/** Every tile, those another one's full view hides too. */
const tiles = () =>
  within(screen.getByRole("list", { name: "Events on screen" })).getAllByRole("listitem", { hidden: true });
const tileTitles = () => tiles().map((tile) => within(tile).getByRole("heading", { level: 2 }).textContent);
const listenButtons = () => screen.getAllByRole("button", { name: /^Hear /, hidden: true });
const pressed = () => listenButtons().map((button) => button.getAttribute("aria-pressed"));

/** jsdom has no media queries: the screen is `width` px wide. */
function screenWidth(width: number) {
  vi.stubGlobal(
    "matchMedia",
    (query: string) =>
      ({
        matches: /max-width: ([\d.]+)px/.test(query) && width <= Number(/max-width: ([\d.]+)px/.exec(query)![1]),
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }) as unknown as MediaQueryList,
  );
}

beforeAll(() => setUpEnglish(["watching", "event", "player", "common"]));
afterEach(async () => {
  vi.unstubAllGlobals();
  await setSpoilerFree(false);
});

describe("multiview", () => {
  it("shows the events of the address in its order, and the paywall of one the viewer may not watch", async () => {
    screenWidth(1280);
    stubServer();
    renderMultiview(`/multiview?events=${A},${LOCKED},${C}`);
    await waitFor(() =>
      expect(tileTitles()).toEqual([
        "Tile 1: Ashford Town vs Port Sable Albion",
        "Tile 2: Summit Ridge Peaks vs Canyon Falls Coyotes",
        "Tile 3: Northpoint Navigators vs Baymouth Whalers",
      ]),
    );
    const locked = tiles()[1];
    expect(within(locked).getByText("Paywall of Summit Ridge Peaks vs Canyon Falls Coyotes")).toBeTruthy();
    expect(within(locked).queryByRole("button", { name: /^Hear / })).toBeNull();
    expect(locked.querySelector("video")).toBeNull();
    expect(tiles()[0].querySelector("video")).not.toBeNull();
  });

  it("rewrites an address naming other things than events, or one event twice, to what it shows", async () => {
    screenWidth(1280);
    stubServer();
    const router = renderMultiview(`/multiview?events=${A},nonsense,${A},${B}&from=share`);
    await waitFor(() => expect(router.state.location.search).toBe(`?events=${A},${B}&from=share`));
    await waitFor(() => expect(tiles()).toHaveLength(2));
  });

  it("gives the sound to one tile at a time: the first, then key 2, then a click on tile 3", async () => {
    screenWidth(1280);
    stubServer();
    renderMultiview(`/multiview?events=${A},${B},${C},${D}`);
    await waitFor(() => expect(listenButtons()).toHaveLength(4));
    expect(pressed()).toEqual(["true", "false", "false", "false"]);
    await waitFor(() => expect(screen.getByRole("status", { name: "" }).textContent).toContain("Sound: tile 1"));

    fireEvent.keyDown(window, { key: "2" });
    expect(pressed()).toEqual(["false", "true", "false", "false"]);
    await waitFor(() => expect(screen.getByText("Sound: tile 2, Morning Skate: Northfield Wolves")).toBeTruthy());
    expect(tiles()[1].hasAttribute("data-audible")).toBe(true);

    fireEvent.click(listenButtons()[2]);
    expect(pressed()).toEqual(["false", "false", "true", "false"]);
    await waitFor(() =>
      expect(screen.getByText("Sound: tile 3, Northpoint Navigators vs Baymouth Whalers")).toBeTruthy(),
    );

    // A number typed into a field is text, not a choice of sound.
    const field = document.createElement("input");
    document.body.append(field);
    fireEvent.keyDown(field, { key: "1" });
    field.remove();
    expect(pressed()).toEqual(["false", "false", "true", "false"]);
  });

  it("shows one tile in full view and goes back with Escape or its button", async () => {
    screenWidth(1280);
    stubServer();
    renderMultiview(`/multiview?events=${A},${B},${C}`);
    await waitFor(() => expect(listenButtons()).toHaveLength(3));
    fireEvent.click(screen.getByRole("button", { name: "Show Morning Skate: Northfield Wolves in full view" }));
    expect(tiles().map((tile) => tile.hidden)).toEqual([true, false, true]);
    // Full view gives the tile the sound too.
    expect(pressed()).toEqual(["false", "true", "false"]);

    fireEvent.keyDown(window, { key: "Escape" });
    expect(tiles().map((tile) => tile.hidden)).toEqual([false, false, false]);

    fireEvent.click(screen.getByRole("button", { name: "Show Ashford Town vs Port Sable Albion in full view" }));
    // A number key in full view shows that tile instead.
    fireEvent.keyDown(window, { key: "3" });
    expect(tiles().map((tile) => tile.hidden)).toEqual([true, true, false]);
    fireEvent.click(within(tiles()[2]).getByRole("button", { name: "Back to all events" }));
    expect(tiles().map((tile) => tile.hidden)).toEqual([false, false, false]);
  });

  it("sets the tile with the sound large in the one-large layout", async () => {
    screenWidth(1280);
    stubServer();
    renderMultiview(`/multiview?events=${A},${B},${C},${D}`);
    await waitFor(() => expect(listenButtons()).toHaveLength(4));
    fireEvent.click(screen.getByRole("button", { name: "One large" }));
    expect(screen.getByRole("button", { name: "One large" }).getAttribute("aria-pressed")).toBe("true");
    expect(tiles().map((tile) => tile.hasAttribute("data-large"))).toEqual([true, false, false, false]);
    fireEvent.keyDown(window, { key: "4" });
    expect(tiles().map((tile) => tile.hasAttribute("data-large"))).toEqual([false, false, false, true]);
    expect(tiles()[3].style.gridRow).toBe("1 / span 3");
    fireEvent.click(screen.getByRole("button", { name: "Grid" }));
    expect(tiles().some((tile) => tile.hasAttribute("data-large"))).toBe(false);
  });

  it("adds and removes events from the picker, keeping the address, and closes it at four", async () => {
    screenWidth(1280);
    stubServer();
    const router = renderMultiview("/multiview");
    const picker = screen.getByRole("region", { name: "Live events" });
    fireEvent.click(await within(picker).findByRole("button", { name: "Add Ashford Town vs Port Sable Albion" }));
    await waitFor(() => expect(router.state.location.search).toBe(`?events=${A}`));
    for (const title of [
      "Morning Skate: Northfield Wolves",
      "Summit Ridge Peaks vs Canyon Falls Coyotes",
      "Northpoint Navigators vs Baymouth Whalers",
    ])
      fireEvent.click(within(picker).getByRole("button", { name: `Add ${title}` }));
    await waitFor(() => expect(router.state.location.search).toBe(`?events=${A},${B},${LOCKED},${C}`));
    expect(picker.hidden).toBe(true);
    expect(screen.getByRole("button", { name: "Add events" }).getAttribute("aria-expanded")).toBe("false");
    expect(screen.getByText("4 of 4 on screen")).toBeTruthy();
    // Full: a fifth cannot be added.
    expect(
      (
        within(picker).getByRole("button", {
          name: "Add Brightwater Harriers vs Redcliff City",
          hidden: true,
        }) as HTMLButtonElement
      ).disabled,
    ).toBe(true);

    await waitFor(() => expect(tileTitles()[1]).toBe("Tile 2: Morning Skate: Northfield Wolves"));
    fireEvent.click(
      within(tiles()[1]).getByRole("button", { name: "Remove Morning Skate: Northfield Wolves from multiview" }),
    );
    await waitFor(() => expect(router.state.location.search).toBe(`?events=${A},${LOCKED},${C}`));
    expect(tiles()).toHaveLength(3);
  });

  it("in spoiler-free mode shows no score and asks for none; otherwise a live game's score", async () => {
    screenWidth(1280);
    const server = stubServer();
    renderMultiview(`/multiview?events=${A}`);
    await waitFor(() => expect(within(tiles()[0]).getByText("3 – 1")).toBeTruthy());
    expect(within(tiles()[0]).getByText("Score 3 to 1")).toBeTruthy();

    await act(() => setSpoilerFree(true));
    await waitFor(() => expect(within(tiles()[0]).queryByText("3 – 1")).toBeNull());
    // Another game opened with the mode on: its tile asks for no score at all.
    const asked = server.callsTo("GET /api/event/stats").length;
    cleanup();
    renderMultiview(`/multiview?events=${C}`);
    await waitFor(() => expect(tileTitles()).toEqual(["Tile 1: Northpoint Navigators vs Baymouth Whalers"]));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(within(tiles()[0]).queryByText(/\d – \d/)).toBeNull();
    expect(server.callsTo("GET /api/event/stats").length).toBe(asked);
  });

  it("on a narrow screen lists the live events to pick one, the address's first, and plays nothing", async () => {
    screenWidth(500);
    stubServer();
    renderMultiview(`/multiview?events=${C},${D}`);
    const list = await screen.findByRole("list", { name: "Live events to watch" });
    const links = within(list).getAllByRole("link");
    expect(links.slice(0, 2).map((link) => link.getAttribute("href"))).toEqual([`/events/${C}`, `/events/${D}`]);
    expect(links[0].getAttribute("aria-label")).toBe("Watch Northpoint Navigators vs Baymouth Whalers");
    expect(document.querySelector("video")).toBeNull();
    expect(screen.queryByRole("list", { name: "Events on screen" })).toBeNull();
  });
});
