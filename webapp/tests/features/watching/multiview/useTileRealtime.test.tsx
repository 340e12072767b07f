import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { components } from "@/api/schema.gen";
import type { CatalogEvent } from "@/entities/event";
import { MultiviewPage } from "@/features/watching/multiview/MultiviewPage";
import { joinEventRoom, leaveEventRoom } from "@/realtime/socket";
import type { ServerToClientEvents } from "@/realtime/events.gen";
import { apiEvent, pageOf, testConfig } from "../../../support/fixtures";
import { json, stubApi } from "../../../support/fetchStub";
import { setUpEnglish } from "../../../support/i18n";
import { renderWithApp } from "../../../ui/renderWithApp";

type ApiEvent = components["schemas"]["Event"];

/** The socket: room calls are spies; every listener is kept (each tile listens), to play the server's messages. */
const socket = vi.hoisted(() => ({ listeners: new Map<string, Set<(payload: never) => void>>() }));

vi.mock("@/realtime/socket", async () => {
  const { useEffect, useRef } = await import("react");
  const on = (name: string, handler: (payload: never) => void) => {
    if (!socket.listeners.has(name)) socket.listeners.set(name, new Set());
    socket.listeners.get(name)!.add(handler);
    return () => {
      socket.listeners.get(name)?.delete(handler);
    };
  };
  return {
    joinEventRoom: vi.fn(async (eventId: string) => ({ ok: true, room: `event:${eventId}` })),
    leaveEventRoom: vi.fn(async (eventId: string) => ({ ok: true, room: `event:${eventId}` })),
    onSocketEvent: on,
    useSocketEvent: (name: string, handler: (payload: never) => void) => {
      // As socket.ts does: listening from mount to unmount, with the latest handler.
      const latest = useRef(handler);
      latest.current = handler;
      useEffect(() => on(name, (payload) => latest.current(payload)), [name]);
    },
  };
});

async function serverSays<N extends keyof ServerToClientEvents>(
  name: N,
  payload: Parameters<ServerToClientEvents[N]>[0],
) {
  const listeners = [...(socket.listeners.get(name) ?? [])];
  expect(listeners.length, `something listens to ${name}`).toBeGreaterThan(0);
  await act(async () => listeners.forEach((listener) => listener(payload as never)));
}

const A = "d2aefc184837b3fb7057f13a";
const B = "ce31d8da7950a1cab57cf5c4";

const stream = (id: string, from = 1795000000) =>
  `/media/live/${id}/from-${from}/index.m3u8?token=1795003600.AAAAAAAAAAAAAAAAAAAAAA`;
const live = (id: string, title: string): ApiEvent =>
  apiEvent({
    _id: id,
    title,
    content: { HLSStream: stream(id), PanoStream: null, PosterH: null, MezzanineVideo: null, EPG: null },
  });

/** The server: what each event's answer is now (a test changes it before the socket says so). */
function stubServer(answers: Record<string, ApiEvent>) {
  return stubApi({
    "POST /api/event/list": () => json(pageOf(Object.values(answers))),
    "GET /api/event/stats": () => json({ content: { vidswap: {} }, error: false, message: "" }),
    ...Object.fromEntries(
      [A, B].map((id) => [
        `GET /api/event/get_by_id/id/${id}`,
        () => json({ content: answers[id], error: false, message: "" }),
      ]),
    ),
  });
}

const Paywall = ({ event }: { event: CatalogEvent }) => <p>Paywall of {event.title}</p>;

function renderMultiview(url: string) {
  return renderWithApp(<MultiviewPage Paywall={Paywall} />, {
    url,
    path: "/multiview",
    config: testConfig({ match_stats: false }),
  });
}

const tiles = () =>
  within(screen.getByRole("list", { name: "Events on screen" })).getAllByRole("listitem", { hidden: true });
const tileOf = (id: string) => tiles().find((tile) => tile.dataset.eventId === id)!;

beforeAll(() => setUpEnglish(["watching", "event", "player", "common"]));
// Counted from each test's start: the previous test's page leaves its rooms when it is unmounted,
// after this file's afterEach (tests/setup.ts unmounts it).
beforeEach(() => {
  socket.listeners.clear();
  vi.mocked(joinEventRoom).mockClear();
  vi.mocked(leaveEventRoom).mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe("a multiview tile's live updates", () => {
  it("joins the room of each live event on screen, and leaves a tile's room when it is removed", async () => {
    stubServer({
      [A]: live(A, "Ashford Town vs Port Sable Albion"),
      [B]: live(B, "Brightwater Harriers vs Redcliff City"),
    });
    renderMultiview(`/multiview?events=${A},${B}`);
    await waitFor(() =>
      expect(
        vi
          .mocked(joinEventRoom)
          .mock.calls.map(([id]) => id)
          .sort(),
      ).toEqual([A, B].sort()),
    );
    expect(leaveEventRoom).not.toHaveBeenCalled();

    fireEvent.click(
      screen.getByRole("button", { name: "Remove Brightwater Harriers vs Redcliff City from multiview" }),
    );
    await waitFor(() => expect(leaveEventRoom).toHaveBeenCalledWith(B));
    expect(leaveEventRoom).not.toHaveBeenCalledWith(A);
  });

  it("reads its event again when the room says the stream moved, and only its own", async () => {
    const answers = {
      [A]: live(A, "Ashford Town vs Port Sable Albion"),
      [B]: live(B, "Brightwater Harriers vs Redcliff City"),
    };
    const server = stubServer(answers);
    renderMultiview(`/multiview?events=${A},${B}`);
    await waitFor(() => expect(tiles()).toHaveLength(2));
    await waitFor(() => expect(tileOf(A).querySelector("video")).not.toBeNull());
    const reads = (id: string) => server.callsTo(`GET /api/event/get_by_id/id/${id}`).length;
    const [readsOfA, readsOfB] = [reads(A), reads(B)];

    await serverSays("event-url-change", { eventId: A, eventUrl: `/media/live/${A}/from-1795009000/index.m3u8` });
    await waitFor(() => expect(reads(A)).toBe(readsOfA + 1));
    expect(reads(B)).toBe(readsOfB);
  });

  it("says the match is no longer live when the room says it ended", async () => {
    const answers = {
      [A]: live(A, "Ashford Town vs Port Sable Albion"),
      [B]: live(B, "Brightwater Harriers vs Redcliff City"),
    };
    stubServer(answers);
    renderMultiview(`/multiview?events=${A},${B}`);
    await waitFor(() => expect(tileOf(B).querySelector("video")).not.toBeNull());

    answers[B] = { ...answers[B], status: "archived" };
    await serverSays("update-event", { eventId: B, status: "archived" });
    await waitFor(() => expect(within(tileOf(B)).getByText("This event is not live now.")).toBeTruthy());
    expect(tileOf(B).querySelector("video")).toBeNull();
    expect(tileOf(A).querySelector("video")).not.toBeNull();
  });
});
