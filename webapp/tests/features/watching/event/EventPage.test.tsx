import { forwardRef, useImperativeHandle } from "react";
import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { components } from "@/api/schema.gen";
import type { EventPlayerHandle, EventPlayerProps } from "@/features/watching/event/EventPlayer";
import EventPage from "@/features/watching/pages/EventPage";
import type { ServerToClientEvents } from "@/realtime/events.gen";
import { tellOtherTabs } from "@/realtime/purchases";
import { joinEventRoom, leaveEventRoom } from "@/realtime/socket";
import { hideScoresAgain, hideSpoilersInCalls, setSpoilerFree } from "@/session/spoilers";
import { apiEvent, pageOf } from "../../../support/fixtures";
import { renderPage } from "../../../support/renderPage";
import { fakeServer, failure, ok, signIn, signOutQuietly, type RecordedCall } from "../../../session/fakeServer";

type ApiEvent = components["schemas"]["Event"];
type ApiTag = components["schemas"]["Tag"];

/** The player stands in as a box showing what it was given (its notice too); its handle is a set of spies. */
const player = vi.hoisted(() => ({
  time: null as number | null,
  handle: {
    streamTime: vi.fn(),
    streamEnd: vi.fn(() => null),
    seekTo: vi.fn(),
    play: vi.fn(async () => undefined),
    pause: vi.fn(),
    playClip: vi.fn(),
  },
  mounts: 0,
  /** What the page gave the player to report its time with. */
  report: null as ((seconds: number) => void) | null,
}));

vi.mock("@/features/watching/event/EventPlayer", async () => {
  const { useEffect } = await import("react");
  return {
    EventPlayer: forwardRef<EventPlayerHandle, EventPlayerProps>(function FakePlayer(
      { event, startAt, markers, onStreamTimeChange, notice },
      ref,
    ) {
      player.report = onStreamTimeChange ?? null;
      useImperativeHandle(ref, () => ({ ...player.handle, streamTime: () => player.time }), []);
      useEffect(() => {
        player.mounts += 1;
      }, []);
      return (
        <div
          data-testid="player"
          data-stream={event.streamUrl ?? ""}
          data-start={startAt ?? ""}
          data-markers={(markers ?? []).map((marker) => `${marker.time}:${marker.label}`).join("|")}
        >
          {notice}
        </div>
      );
    }),
  };
});

/** The socket: room calls are spies, page listeners are kept to play the server's messages. */
const socket = vi.hoisted(() => ({ listeners: new Map<string, (payload: never) => void>() }));

vi.mock("@/realtime/socket", () => ({
  joinEventRoom: vi.fn(async (eventId: string) => ({ ok: true, room: `event:${eventId}` })),
  leaveEventRoom: vi.fn(async (eventId: string) => ({ ok: true, room: `event:${eventId}` })),
  useSocketEvent: (name: string, handler: (payload: never) => void) => {
    socket.listeners.set(name, handler);
  },
  onSocketEvent: (name: string, handler: (payload: never) => void) => {
    socket.listeners.set(name, handler);
    return () => {
      if (socket.listeners.get(name) === handler) socket.listeners.delete(name);
    };
  },
}));

async function serverSays<N extends keyof ServerToClientEvents>(
  name: N,
  payload: Parameters<ServerToClientEvents[N]>[0],
) {
  const listener = socket.listeners.get(name);
  expect(listener, `the page listens to ${name}`).toBeDefined();
  await act(async () => listener!(payload as never));
}

const ID = "d2aefc184837b3fb7057f13a";
const SIGNED = (token: string, path = "live/football/from-1795000000/index.m3u8") => `/media/${path}?token=${token}`;

function eventWith(patch: Partial<ApiEvent> = {}, content: Partial<ApiEvent["content"]> = {}): ApiEvent {
  const base = apiEvent();
  return { ...base, ...patch, content: { ...base.content, ...content } };
}
const upcomingEvent = () =>
  eventWith(
    { status: "upcoming", event_date: new Date(Date.now() + 3 * 3600_000).toISOString(), gameStartDate: null },
    { HLSStream: null },
  );
const lockedEvent = () =>
  eventWith(
    {
      commerce_type: "commerce_ppv_media",
      commerceType: ["ppv"],
      commerceCoverage: ["ppv"],
      availableForUser: false,
    },
    { HLSStream: null },
  );

function product(patch: Partial<components["schemas"]["Product"]> = {}): components["schemas"]["Product"] {
  return {
    _id: "4a1c0a8e2b3d4c5e6f7a8bb0",
    title: "Pay-per-view: Ashford Town vs Port Sable Albion",
    description: "Watch the match live and on demand for 7 days.",
    type: "ppv",
    event_id: ID,
    price: 9.99,
    priceMinor: 999,
    currency: "EUR",
    active: false,
    canceled: false,
    purchaseProcessing: false,
    renewable: false,
    availableInUserRegion: true,
    offerStartDate: null,
    offerEndDate: null,
    contractEndDate: null,
    duration: 7,
    durationUnits: "days",
    allowedAccessIdentityItems: [],
    updated: "2026-11-01T10:00:00Z",
    ...patch,
  };
}

function tag(patch: Partial<ApiTag>): ApiTag {
  return {
    _id: "2a1c0a8e2b3d4c5e6f7a8bd0",
    targetId: ID,
    userId: null,
    title: "Goal",
    startTime: 754000,
    endTime: 754000,
    timePTS: null,
    type: "game",
    subtype: "goal",
    global: true,
    playerNumber: null,
    playerColor: null,
    teamId: null,
    videoType: "vod",
    streamName: "hd",
    mode: "sync",
    added: "2026-11-22T08:31:00Z",
    updated: "2026-11-22T08:31:00Z",
    ...patch,
  };
}

function userClip(patch: Partial<ApiEvent> = {}): ApiEvent {
  return eventWith(
    {
      _id: "8b1c0a8e2b3d4c5e6f7a8ba4",
      title: "My goal",
      media_type: "user_clip",
      status: "archived",
      event_id: ID,
      startTime: 100000,
      endTime: 130000,
      duration: 30,
      ...patch,
    },
    { HLSStream: "/media/vod/football/clip-100000-130000/index.m3u8?token=clip-token" },
  );
}

interface Backend {
  event: () => ApiEvent;
  tags?: { global: ApiTag[]; own: ApiTag[] } | (() => Response);
  clips?: () => ApiEvent[];
  commerce?: () => unknown;
  stats?: () => Response;
  /** POST /clip/list (the highlight lists) and GET /vod/get_related_videos; empty pages by default. */
  highlights?: (call: RecordedCall) => Response | Promise<Response>;
  related?: () => Response | Promise<Response>;
}

/** The API as the event page uses it; anything else answers an empty page. */
function serve(backend: Backend) {
  return fakeServer({
    [`GET /event/get_by_id/id/${ID}`]: () => ok(backend.event()),
    "POST /tag/list": (call: RecordedCall) => {
      const tags = backend.tags ?? { global: [], own: [] };
      if (typeof tags === "function") return tags();
      const global = (call.body as { global: boolean }).global;
      return ok(pageOf(global ? tags.global : tags.own).content);
    },
    "POST /clip/user_list": () => ok(pageOf(backend.clips?.() ?? []).content),
    "POST /clip/list": (call) => backend.highlights?.(call) ?? ok(pageOf([]).content),
    "GET /vod/get_related_videos": () => backend.related?.() ?? ok(pageOf([]).content),
    "GET /event/get_commerce_options": () =>
      ok(
        backend.commerce?.() ?? {
          eventId: ID,
          availableForUser: true,
          availableInUserRegion: true,
          commerceCoverage: ["free"],
          products: [],
        },
      ),
    "GET /event/stats": () => backend.stats?.() ?? failure(404, "stats_not_found"),
    "POST /tag/saveV2": (call) => {
      const body = call.body as { title: string; startTime: number };
      return ok(tag({ _id: "9f9f9f9f9f9f9f9f9f9f9f9f", title: body.title, startTime: body.startTime * 1000 }));
    },
    "POST /tag/update": (call) => ok(tag({ ...(call.body as object), userId: "9a1c0a8e2b3d4c5e6f7a8ba2" })),
    "POST /tag/remove_list": (call) => ok({ removed: 1, ids: (call.body as { ids: string[] }).ids }),
    "POST /clip/create": (call) => {
      const body = call.body as { title: string; startTime: number; endTime: number };
      return ok(userClip({ title: body.title, startTime: body.startTime * 1000, endTime: body.endTime * 1000 }));
    },
    [`POST /clip/update/8b1c0a8e2b3d4c5e6f7a8ba4`]: (call) => ok(userClip(call.body as Partial<ApiEvent>)),
    [`POST /clip/delete/8b1c0a8e2b3d4c5e6f7a8ba4`]: () => ok(null),
    [`GET /clip/get_by_id/id/8b1c0a8e2b3d4c5e6f7a8ba4`]: () => ok(userClip()),
    [`GET /event/epg/${ID}`]: () =>
      ok({
        channel: { _id: ID, title: "Touchline Sports 24" },
        entries: [
          {
            _id: "6a1c0a8e2b3d4c5e6f7a8b9d",
            title: "Matchday live",
            description: null,
            startTime: Date.now() - 600_000,
            endTime: Date.now() + 600_000,
            event_id: null,
          },
        ],
      }),
    "POST /user/add_to_watchlist": () => ok({ selected: [ID] }),
    "POST /user/remove_from_watchlist": () => ok({ selected: [] }),
  });
}

/** Lets deferred work (query notifications, fetches) run before asserting that nothing happened. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

const requestPath = (input: RequestInfo | URL) =>
  new URL(input instanceof Request ? input.url : String(input), "http://localhost").pathname;

const openEvent = (route = `/events/${ID}`) => renderPage(<EventPage />, { path: "/events/:eventId", route });

beforeEach(() => {
  player.time = null;
  player.report = null;
  player.mounts = 0;
  socket.listeners.clear();
  vi.mocked(joinEventRoom).mockClear();
  vi.mocked(leaveEventRoom).mockClear();
  for (const spy of Object.values(player.handle)) spy.mockClear();
});

afterEach(() => {
  signOutQuietly();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the event page's realtime behaviour (spec §4)", () => {
  it("counts down to kick-off, then plays the viewer's own stream on event-url-change, without a reload", async () => {
    let live = false;
    const server = serve({
      event: () => (live ? eventWith({ status: "live" }, { HLSStream: SIGNED("viewer-token") }) : upcomingEvent()),
    });
    await openEvent();
    expect(await screen.findByRole("timer")).toBeTruthy();
    expect(screen.queryByTestId("player")).toBeNull();

    live = true;
    await serverSays("event-url-change", { eventId: ID, eventUrl: "/media/live/football.m3u8" });

    const shown = await screen.findByTestId("player");
    // The message's stored address plays for nobody: the page reloads the event for its own.
    expect(shown.dataset.stream).toBe(SIGNED("viewer-token"));
    expect(server.callsTo(`/event/get_by_id/id/${ID}`)).toHaveLength(2);
    expect(screen.queryByRole("timer")).toBeNull();
  });

  it("becomes the player once kick-off time has passed and the event is live, without any message", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let live = false;
      serve({
        event: () =>
          live
            ? eventWith({ status: "live" }, { HLSStream: SIGNED("kicked-off") })
            : { ...upcomingEvent(), event_date: new Date(Date.now() + 1500).toISOString() },
      });
      await openEvent();
      expect(await screen.findByRole("timer")).toBeTruthy();
      await act(() => vi.advanceTimersByTimeAsync(2000));
      expect(await screen.findByText(/Starting soon/)).toBeTruthy();

      // The kick-off job has started it: the page asks again until it sees so.
      live = true;
      await act(() => vi.advanceTimersByTimeAsync(5000));
      expect((await screen.findByTestId("player")).dataset.stream).toBe(SIGNED("kicked-off"));
    } finally {
      vi.useRealTimers();
    }
  });

  it("starts the player afresh when event-url-change names the stream it already plays", async () => {
    let token = "first";
    serve({ event: () => eventWith({}, { HLSStream: SIGNED(token) }) });
    await openEvent();
    await screen.findByTestId("player");
    expect(player.mounts).toBe(1);

    token = "second";
    await serverSays("event-url-change", { eventId: ID, eventUrl: "/media/live/football.m3u8" });
    await waitFor(() => expect(screen.getByTestId("player").dataset.stream).toBe(SIGNED("second")));
    expect(player.mounts).toBe(2);
  });

  it("ignores messages about other events", async () => {
    const server = serve({ event: () => eventWith() });
    await openEvent();
    await screen.findByTestId("player");
    await serverSays("event-url-change", { eventId: "ffffffffffffffffffffffff", eventUrl: "/media/live/x.m3u8" });
    await serverSays("update-event", { eventId: "ffffffffffffffffffffffff", title: "Other" });
    await settle();
    expect(server.callsTo(`/event/get_by_id/id/${ID}`)).toHaveLength(1);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Ashford Town vs Port Sable Albion");
  });

  it("shows update-event's changes at once and refreshes the event", async () => {
    const server = serve({ event: () => eventWith({ title: "Ashford Town vs Port Sable Albion" }) });
    await openEvent();
    await screen.findByTestId("player");
    // The reload never answers here: what shows is the message's own change.
    const answer = server.fetch.getMockImplementation()!;
    server.fetch.mockImplementation((input) =>
      requestPath(input).startsWith("/api/event/get_by_id/") ? new Promise<Response>(() => undefined) : answer(input),
    );
    await serverSays("update-event", { eventId: ID, title: "Ashford Town vs Port Sable Albion (abandoned)" });
    expect(
      await screen.findByRole("heading", { level: 1, name: "Ashford Town vs Port Sable Albion (abandoned)" }),
    ).toBeTruthy();
    const lookups = server.fetch.mock.calls.filter(([input]) => requestPath(input) === `/api/event/get_by_id/id/${ID}`);
    expect(lookups).toHaveLength(2);
  });

  it("joins the event room once per status change while live or upcoming, and leaves as often when the page goes", async () => {
    let status: ApiEvent["status"] = "upcoming";
    serve({ event: () => (status === "upcoming" ? upcomingEvent() : eventWith({ status })) });
    const { unmount } = await openEvent();
    await screen.findByRole("timer");
    await waitFor(() => expect(joinEventRoom).toHaveBeenCalledTimes(1));
    expect(joinEventRoom).toHaveBeenCalledWith(ID);

    status = "live";
    await serverSays("update-event", { eventId: ID, status: "live" });
    await screen.findByTestId("player");
    expect(joinEventRoom).toHaveBeenCalledTimes(2);
    expect(leaveEventRoom).not.toHaveBeenCalled();

    unmount();
    expect(leaveEventRoom).toHaveBeenCalledTimes(2);
    expect(leaveEventRoom).toHaveBeenCalledWith(ID);
  });

  it("shows no moments or clips panels before kick-off", async () => {
    signIn();
    serve({ event: () => upcomingEvent() });
    await openEvent();
    await screen.findByRole("timer");
    expect(screen.queryByText("No moments yet. Tag one while you watch.")).toBeNull();
    expect(screen.queryByRole("heading", { name: "Moments" })).toBeNull();
  });

  it("counts down to kick-off on the page when the stage shows the paywall", async () => {
    serve({
      event: () => ({
        ...lockedEvent(),
        status: "upcoming",
        event_date: new Date(Date.now() + 3 * 3600_000).toISOString(),
        gameStartDate: null,
      }),
    });
    await openEvent();
    const timer = await screen.findByRole("timer");
    expect(timer.textContent).toMatch(/0?2:59:\d\d|03:00:00/);
  });

  it("leaves the room when the eventId parameter changes", async () => {
    serve({ event: () => eventWith() });
    const { router } = await openEvent();
    await screen.findByTestId("player");
    await waitFor(() => expect(joinEventRoom).toHaveBeenCalledTimes(1));
    await act(() => router.navigate("/events/ffffffffffffffffffffffff"));
    expect(leaveEventRoom).toHaveBeenCalledWith(ID);
  });

  it("does not join the room of an archived event", async () => {
    serve({ event: () => eventWith({ status: "archived" }, { HLSStream: SIGNED("t", "vod/football/index.m3u8") }) });
    await openEvent();
    await screen.findByTestId("player");
    expect(joinEventRoom).not.toHaveBeenCalled();
  });

  it("says so when the new stream cannot be loaded, and tries again on request", async () => {
    let down = false;
    serve({ event: () => eventWith({}, { HLSStream: SIGNED(down ? "x" : "first") }) });
    await openEvent();
    await screen.findByTestId("player");
    const fetch = vi.mocked(globalThis.fetch);
    const original = fetch.getMockImplementation()!;
    fetch.mockImplementation(async (input) =>
      requestPath(input).startsWith("/api/event/get_by_id/") ? failure(503, "database_unavailable") : original(input),
    );
    await serverSays("event-url-change", { eventId: ID, eventUrl: "/media/live/football.m3u8" });
    const alert = await screen.findByText(/The new stream could not be loaded/);
    fetch.mockImplementation(original);
    down = true;
    fireEvent.click(within(alert.closest("[role=alert]") as HTMLElement).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(screen.queryByText(/The new stream could not be loaded/)).toBeNull());
    expect(screen.getByTestId("player").dataset.stream).toBe(SIGNED("x"));
  });
});

describe("buying access", () => {
  const commerce = () => ({
    eventId: ID,
    availableForUser: false,
    availableInUserRegion: true,
    commerceCoverage: ["ppv"],
    products: [
      product(),
      product({
        _id: "4b1c0a8e2b3d4c5e6f7a8bb1",
        type: "svod",
        title: "All Access",
        event_id: null,
        price: 14.99,
        duration: 1,
        durationUnits: "months",
      }),
    ],
  });

  it("shows a viewer who may not watch how to: this match, a subscription or a code, and plays no stream", async () => {
    signIn();
    serve({ event: lockedEvent, commerce });
    await openEvent();
    const paywall = await screen.findByRole("region", { name: "Watch this match" });
    const buy = await within(paywall).findByRole("link", { name: /Buy this match/ });
    expect(buy.textContent).toContain("€9.99");
    expect(buy.getAttribute("href")).toBe(
      `/account/ppv/${ID}?product=4a1c0a8e2b3d4c5e6f7a8bb0&redirect=${encodeURIComponent(`/events/${ID}`)}`,
    );
    expect(
      within(paywall)
        .getByRole("link", { name: /Subscribe/ })
        .getAttribute("href"),
    ).toBe(`/account/subscription/buy/4b1c0a8e2b3d4c5e6f7a8bb1?redirect=${encodeURIComponent(`/events/${ID}`)}`);
    expect(within(paywall).getByRole("link", { name: "Redeem a code" }).getAttribute("href")).toBe(
      `/auth/sign-up/subscription/code?redirect=${encodeURIComponent(`/events/${ID}`)}`,
    );
    expect(screen.queryByTestId("player")).toBeNull();
  });

  it("sends an anonymous viewer to sign in first, then to the purchase, then back", async () => {
    serve({ event: lockedEvent, commerce });
    await openEvent();
    const buy = await screen.findByRole("link", { name: /Buy this match/ });
    const target = `/account/ppv/${ID}?product=4a1c0a8e2b3d4c5e6f7a8bb0&redirect=${encodeURIComponent(`/events/${ID}`)}`;
    expect(buy.getAttribute("href")).toBe(`/auth/login/?redirect=${encodeURIComponent(target)}`);
    expect(screen.getByRole("link", { name: "Already have access? Sign in" }).getAttribute("href")).toBe(
      `/auth/login/?redirect=${encodeURIComponent(`/events/${ID}`)}`,
    );
  });

  it("says when the event is not available in the viewer's region, with nothing to buy", async () => {
    serve({ event: () => ({ ...lockedEvent(), availableInUserRegion: false }), commerce });
    await openEvent();
    expect(await screen.findByText("This event is not available in your region.")).toBeTruthy();
    expect(screen.queryByRole("link", { name: /Buy this match/ })).toBeNull();
  });

  it("starts the player when user-purchase-status announces the purchase, without a reload", async () => {
    signIn();
    let paid = false;
    serve({
      event: () => (paid ? eventWith({ availableForUser: true }, { HLSStream: SIGNED("bought") }) : lockedEvent()),
      commerce,
    });
    await openEvent();
    await screen.findByRole("link", { name: /Buy this match/ });

    await serverSays("user-purchase-status", {
      purchaseId: "3b1c0a8e2b3d4c5e6f7a8bc1",
      status: "in progress",
      productId: "4a1c0a8e2b3d4c5e6f7a8bb0",
      eventId: ID,
    });
    expect(await screen.findByText(/Your payment is being processed/)).toBeTruthy();

    paid = true;
    await serverSays("user-purchase-status", {
      purchaseId: "3b1c0a8e2b3d4c5e6f7a8bc1",
      status: "success",
      productId: "4a1c0a8e2b3d4c5e6f7a8bb0",
      eventId: ID,
    });
    expect((await screen.findByTestId("player")).dataset.stream).toBe(SIGNED("bought"));
    expect(screen.getByText("Payment confirmed. Enjoy the match!")).toBeTruthy();
    expect(screen.queryByRole("region", { name: "Watch this match" })).toBeNull();
  });

  it("unlocks when another tab of the browser paid for the match at once (no socket message)", async () => {
    signIn();
    let paid = false;
    serve({
      event: () => (paid ? eventWith({ availableForUser: true }, { HLSStream: SIGNED("bought") }) : lockedEvent()),
      commerce,
    });
    await openEvent();
    await screen.findByRole("link", { name: /Buy this match/ });

    paid = true;
    // What the paying tab's checkout sends (src/features/commerce/api/pay.ts).
    tellOtherTabs({
      purchaseId: "3b1c0a8e2b3d4c5e6f7a8bc1",
      status: "success",
      productId: "4a1c0a8e2b3d4c5e6f7a8bb0",
      eventId: ID,
    });
    expect((await screen.findByTestId("player")).dataset.stream).toBe(SIGNED("bought"));
    expect(screen.queryByRole("region", { name: "Watch this match" })).toBeNull();
  });

  it("looks at the event again when the answer right after the purchase still reads locked", async () => {
    signIn();
    let answersAfterPurchase = -1;
    serve({
      event: () => {
        if (answersAfterPurchase >= 0) answersAfterPurchase += 1;
        // The first answer after the message comes from the server's short cache of holdings.
        return answersAfterPurchase >= 2
          ? eventWith({ availableForUser: true }, { HLSStream: SIGNED("bought") })
          : lockedEvent();
      },
      commerce,
    });
    await openEvent();
    await screen.findByRole("link", { name: /Buy this match/ });

    answersAfterPurchase = 0;
    await serverSays("user-purchase-status", {
      purchaseId: "3b1c0a8e2b3d4c5e6f7a8bc1",
      status: "success",
      productId: "4a1c0a8e2b3d4c5e6f7a8bb0",
      eventId: ID,
    });
    expect((await screen.findByTestId("player", {}, { timeout: 4_000 })).dataset.stream).toBe(SIGNED("bought"));
    expect(answersAfterPurchase).toBe(2);
  });

  it("tells a failed payment as an alert and keeps the paywall", async () => {
    signIn();
    serve({ event: lockedEvent, commerce });
    await openEvent();
    await screen.findByRole("link", { name: /Buy this match/ });
    await serverSays("user-purchase-status", {
      purchaseId: "3b1c0a8e2b3d4c5e6f7a8bc1",
      status: "error",
      productId: "4a1c0a8e2b3d4c5e6f7a8bb0",
    });
    expect((await screen.findByText(/did not go through/)).closest("[role=alert]")).not.toBeNull();
    expect(screen.getByRole("link", { name: /Buy this match/ })).toBeTruthy();
  });
});

describe("moments (timeline tags)", () => {
  it("loads the global and the viewer's own tags (999 at once), in timeline order, as markers and a list", async () => {
    signIn();
    const server = serve({
      event: () => eventWith(),
      tags: {
        global: [tag({ _id: "a", title: "Goal", startTime: 754000 })],
        own: [
          tag({ _id: "b", title: "Great save", startTime: 61000, global: false, userId: "9a1c0a8e2b3d4c5e6f7a8ba2" }),
        ],
      },
    });
    await openEvent();
    const list = await screen.findByRole("list", { name: "Moments" });
    const items = within(list).getAllByRole("listitem");
    expect(items.map((item) => within(item).getAllByRole("button")[0].textContent)).toEqual([
      "Go to 1:01 Great save",
      "Go to 12:34 Goal Everyone",
    ]);
    await waitFor(() => expect(screen.getByTestId("player").dataset.markers).toBe("61:Great save|754:Goal"));
    const bodies = server.callsTo("/tag/list").map((call) => call.body);
    expect(bodies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ targetId: ID, global: true, size: 999 }),
        expect.objectContaining({ targetId: ID, global: false, size: 999 }),
      ]),
    );
    // Only the viewer's own tag can be changed.
    expect(within(items[0]).getByRole("button", { name: "Rename Great save" })).toBeTruthy();
    expect(within(items[1]).queryByRole("button", { name: /Rename/ })).toBeNull();

    fireEvent.click(within(items[1]).getAllByRole("button")[0]);
    expect(player.handle.seekTo).toHaveBeenCalledWith(754);
  });

  it("says that the tags failed to load (spec §8)", async () => {
    signIn();
    serve({ event: () => eventWith(), tags: () => failure(500, "internal_error", "Boom") });
    await openEvent();
    expect((await screen.findByText(/The moments could not be loaded/)).closest("[role=alert]")).not.toBeNull();
  });

  it("loads no tags or clips for an anonymous viewer, and offers to sign in", async () => {
    const server = serve({ event: () => eventWith() });
    await openEvent();
    expect(await screen.findByRole("link", { name: /Sign in to see the moments/ })).toBeTruthy();
    expect(server.callsTo("/tag/list")).toHaveLength(0);
    expect(server.callsTo("/clip/user_list")).toHaveLength(0);
  });

  it("tags the current moment, renames the tag and deletes it", async () => {
    signIn();
    let own: ApiTag[] = [];
    const server = serve({ event: () => eventWith(), tags: () => ok(pageOf(own).content) });
    await openEvent();
    await screen.findByText("No moments yet. Tag one while you watch.");

    player.time = 61.4;
    fireEvent.click(screen.getByRole("button", { name: "Tag this moment" }));
    const name = screen.getByLabelText("Name the moment at 1:01");
    expect(document.activeElement).toBe(name);
    fireEvent.change(name, { target: { value: "Header on target" } });
    own = [
      tag({ _id: "c", title: "Header on target", startTime: 61400, global: false, userId: "9a1c0a8e2b3d4c5e6f7a8ba2" }),
    ];
    fireEvent.click(screen.getByRole("button", { name: "Save moment" }));
    expect(await screen.findByText("Moment at 1:01 saved.")).toBeTruthy();
    expect(server.callsTo("/tag/saveV2")[0].body).toEqual({
      targetId: ID,
      title: "Header on target",
      startTime: 61.4,
      endTime: 61.4,
      type: "user",
      global: false,
      mode: "sync",
      videoType: "live",
      streamName: "hd",
    });

    fireEvent.click(await screen.findByRole("button", { name: "Rename Header on target" }));
    fireEvent.change(screen.getByLabelText("New name for “Header on target”"), { target: { value: "Header!" } });
    own = [{ ...own[0], title: "Header!" }];
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Moment renamed to “Header!”.")).toBeTruthy();
    expect(server.callsTo("/tag/update")[0].body).toEqual({ _id: "c", title: "Header!" });

    fireEvent.click(await screen.findByRole("button", { name: "Delete Header!" }));
    own = [];
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    expect(await screen.findByText("Moment “Header!” deleted.")).toBeTruthy();
    expect(server.callsTo("/tag/remove_list")[0].body).toEqual({ ids: ["c"] });
    expect(await screen.findByText("No moments yet. Tag one while you watch.")).toBeTruthy();
  });

  it("says a moment is deleted even when the moments reload without it before the deletion answers", async () => {
    signIn();
    const mine = { global: false, userId: "9a1c0a8e2b3d4c5e6f7a8ba2" };
    let own: ApiTag[] = [tag({ _id: "c", title: "Header!", startTime: 61400, ...mine })];
    const server = serve({ event: () => eventWith(), tags: () => ok(pageOf(own).content) });
    let answerDeletion: (() => void) | undefined;
    const deleted = new Promise<void>((resolve) => (answerDeletion = resolve));
    const removeList = vi.fn(async () => {
      await deleted;
      return ok({ removed: 1, ids: ["c"] });
    });
    const plain = server.fetch.getMockImplementation()!;
    server.fetch.mockImplementation(async (input: RequestInfo | URL) => {
      const request = input instanceof Request ? input : new Request(input);
      return new URL(request.url).pathname.endsWith("/tag/remove_list") ? removeList() : plain(input);
    });
    await openEvent();
    fireEvent.click(await screen.findByRole("button", { name: "Delete Header!" }));
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    await vi.waitFor(() => expect(removeList).toHaveBeenCalled());

    // Meanwhile the viewer tags another moment: the list reloads, already without the deleted one.
    own = [tag({ _id: "d", title: "Save", startTime: 70000, ...mine })];
    player.time = 70;
    fireEvent.click(screen.getByRole("button", { name: "Tag this moment" }));
    fireEvent.change(screen.getByLabelText("Name the moment at 1:10"), { target: { value: "Save" } });
    fireEvent.click(screen.getByRole("button", { name: "Save moment" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: /Header!/ })).toBeNull());

    answerDeletion!();
    expect(await screen.findByText("Moment “Header!” deleted.")).toBeTruthy();
  });

  it("asks to play the match before tagging when playback has not started", async () => {
    signIn();
    serve({ event: () => eventWith() });
    await openEvent();
    fireEvent.click(await screen.findByRole("button", { name: "Tag this moment" }));
    expect(await screen.findByText(/Play the match first/)).toBeTruthy();
    expect(screen.queryByLabelText(/Name the moment/)).toBeNull();
  });
});

describe("my clips", () => {
  it("marks in and out from the player, saves the named clip, plays it in the same player and goes back", async () => {
    signIn();
    let clips: ApiEvent[] = [];
    const server = serve({ event: () => eventWith(), clips: () => clips });
    await openEvent();
    await screen.findByText(/You have no clips of this event yet/);

    player.time = 100;
    fireEvent.click(screen.getByRole("button", { name: "Mark in" }));
    player.time = 130.5;
    fireEvent.click(screen.getByRole("button", { name: "Mark out" }));
    fireEvent.change(screen.getByLabelText("Name your clip from 1:40 to 2:11"), { target: { value: "My goal" } });
    clips = [userClip()];
    fireEvent.click(screen.getByRole("button", { name: "Save clip" }));
    expect(await screen.findByText("Clip “My goal” saved.")).toBeTruthy();
    expect(server.callsTo("/clip/create")[0].body).toEqual({
      event_id: ID,
      title: "My goal",
      startTime: 100,
      endTime: 130.5,
      media_type: "user_clip",
    });

    const list = await screen.findByRole("list", { name: "My clips" });
    fireEvent.click(within(list).getByRole("button", { name: /Play\s*My goal/ }));
    expect(player.handle.playClip).toHaveBeenCalledWith(
      expect.objectContaining({
        url: "/media/vod/football/clip-100000-130000/index.m3u8?token=clip-token",
        title: "My goal",
      }),
    );
    // The clip's address expires like the event's: the player can ask for a fresh one.
    const { renew } = player.handle.playClip.mock.calls[0][0] as { renew: () => Promise<string | null> };
    expect(await renew()).toBe("/media/vod/football/clip-100000-130000/index.m3u8?token=clip-token");
    expect(server.callsTo("/clip/get_by_id/id/8b1c0a8e2b3d4c5e6f7a8ba4")[0].path).toContain("media_type=user_clip");
    expect(screen.getByText("Now playing your clip “My goal”")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Back to the match" }));
    expect(player.handle.playClip).toHaveBeenLastCalledWith(null);
  });

  it("refuses a clip that ends before it starts or runs over 10 minutes", async () => {
    signIn();
    const server = serve({ event: () => eventWith() });
    await openEvent();
    player.time = 700;
    fireEvent.click(await screen.findByRole("button", { name: "Mark in" }));
    player.time = 50;
    fireEvent.click(screen.getByRole("button", { name: "Mark out" }));
    expect(await screen.findByText("The end of a clip must come after its start.")).toBeTruthy();
    player.time = 1400;
    fireEvent.click(screen.getByRole("button", { name: /Mark out/ }));
    expect(await screen.findByText("A clip can be 10 minutes long at most.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Save clip" })).toBeNull();
    expect(server.callsTo("/clip/create")).toHaveLength(0);
  });

  it("renames and deletes a clip", async () => {
    signIn();
    let clips = [userClip()];
    const server = serve({ event: () => eventWith(), clips: () => clips });
    await openEvent();
    fireEvent.click(await screen.findByRole("button", { name: "Rename My goal" }));
    fireEvent.change(screen.getByLabelText("New name for “My goal”"), { target: { value: "Top corner" } });
    clips = [userClip({ title: "Top corner" })];
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Clip renamed to “Top corner”.")).toBeTruthy();
    expect(server.callsTo("/clip/update/8b1c0a8e2b3d4c5e6f7a8ba4")[0].body).toEqual({ title: "Top corner" });

    fireEvent.click(await screen.findByRole("button", { name: "Delete Top corner" }));
    clips = [];
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    expect(await screen.findByText("Clip “Top corner” deleted.")).toBeTruthy();
    expect(server.callsTo("/clip/delete/8b1c0a8e2b3d4c5e6f7a8ba4")).toHaveLength(1);
    expect(await screen.findByText(/You have no clips of this event yet/)).toBeTruthy();
  });

  it("reads a clip list that fails to load as empty (spec §8)", async () => {
    signIn();
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const server = serve({ event: () => eventWith() });
    const original = server.fetch.getMockImplementation()!;
    server.fetch.mockImplementation(async (input) =>
      requestPath(input) === "/api/clip/user_list" ? failure(500, "internal_error") : original(input),
    );
    await openEvent();
    expect(await screen.findByText(/You have no clips of this event yet/)).toBeTruthy();
    expect(console.warn).toHaveBeenCalledWith("User clips failed to load", expect.anything());
  });
});

describe("a live feed that is away (issue 28 §4)", () => {
  const INTERRUPTED = "The broadcast is interrupted. It will resume here by itself when the venue's feed is back.";
  const RECONNECTING = "Reconnecting to the venue's feed…";
  /** What the page shows over the player, as assistive technology announces it. */
  const feedNotice = () => within(screen.getByTestId("player")).queryByRole("status");

  /** Later reloads of the event never answer: what shows is the message's own change. */
  function holdReloads(server: ReturnType<typeof serve>) {
    const answer = server.fetch.getMockImplementation()!;
    server.fetch.mockImplementation((input) =>
      requestPath(input).startsWith("/api/event/get_by_id/") ? new Promise<Response>(() => undefined) : answer(input),
    );
  }

  it("tells the viewer over the player that the broadcast is interrupted when the event loads so", async () => {
    serve({ event: () => eventWith({ liveFeed: "interrupted" }) });
    await openEvent();
    await screen.findByTestId("player");
    expect(feedNotice()?.textContent).toBe(INTERRUPTED);
    expect(feedNotice()?.getAttribute("aria-live")).toBe("polite");
  });

  it("shows the interrupted message as soon as update-event says so, and hides it when the feed is back", async () => {
    const server = serve({ event: () => eventWith() });
    await openEvent();
    await screen.findByTestId("player");
    expect(feedNotice()).toBeNull();
    holdReloads(server);

    // Each change renders with the next commit: a busy machine may take a moment more than act's.
    await serverSays("update-event", { eventId: ID, liveFeed: "reconnecting" });
    await waitFor(() => expect(feedNotice()?.textContent).toBe(RECONNECTING));
    await serverSays("update-event", { eventId: ID, liveFeed: "interrupted" });
    await waitFor(() => expect(feedNotice()?.textContent).toBe(INTERRUPTED));
    await serverSays("update-event", { eventId: ID, liveFeed: null });
    await waitFor(() => expect(feedNotice()).toBeNull());
  });

  it("keeps the message while reloads of the event find its feed still away, and drops it once back", async () => {
    let liveFeed: ApiEvent["liveFeed"] = "interrupted";
    const server = serve({ event: () => eventWith({ liveFeed }) });
    const lookups = () => server.callsTo(`/event/get_by_id/id/${ID}`).length;
    await openEvent();
    await screen.findByTestId("player");
    await serverSays("update-event", { eventId: ID, sportType: "football" });
    await waitFor(() => expect(lookups()).toBe(2));
    await settle();
    expect(feedNotice()?.textContent).toBe(INTERRUPTED);

    liveFeed = undefined;
    await serverSays("update-event", { eventId: ID, liveFeed: null });
    await waitFor(() => expect(lookups()).toBe(3));
    await settle();
    expect(feedNotice()).toBeNull();
  });

  it("says nothing of the feed once the event is no longer live", async () => {
    serve({
      event: () => eventWith({ status: "archived", liveFeed: "interrupted" }, { HLSStream: SIGNED("t", "vod/x.m3u8") }),
    });
    await openEvent();
    await screen.findByTestId("player");
    expect(feedNotice()).toBeNull();
  });
});

describe("channels, lists, stats and links", () => {
  it("loads no tags or clips for a channel, and shows its programme guide", async () => {
    signIn();
    const server = serve({
      event: () =>
        eventWith(
          { status: "channel", eventType: "channel", eventTeams: null, gameType: "other" },
          { EPG: `/api/event/epg/${ID}` },
        ),
    });
    await openEvent();
    expect(await screen.findByRole("heading", { name: "Programme guide", level: 2 })).toBeTruthy();
    expect(await screen.findByText("Matchday live")).toBeTruthy();
    expect(server.callsTo("/tag/list")).toHaveLength(0);
    expect(server.callsTo("/clip/user_list")).toHaveLength(0);
    expect(screen.queryByRole("button", { name: "Tag this moment" })).toBeNull();
  });

  it("asks 24 items for each list: game highlights, player highlights and related videos", async () => {
    const server = serve({ event: () => eventWith() });
    await openEvent();
    await screen.findByTestId("player");
    await waitFor(() => expect(server.callsTo("/clip/list")).toHaveLength(2));
    const [game, players] = server.callsTo("/clip/list").map((call) => call.body as Record<string, unknown>);
    expect(game).toMatchObject({ size: 24, event_id: [ID], type: ["highlight", "recap", "condensed", "auto"] });
    expect(players).toMatchObject({ size: 24, event_id: [ID], type: ["clip"] });
    await waitFor(() => expect(server.callsTo("/vod/get_related_videos")).toHaveLength(1));
    expect(server.callsTo("/vod/get_related_videos")[0].path).toContain("size=24");
  });

  it("shows the lists under the player together, once every one has answered, and leaves out empty ones", async () => {
    let answerRelated: (response: Response) => void = () => undefined;
    const related = new Promise<Response>((resolve) => (answerRelated = resolve));
    const highlight = apiEvent({ _id: "7c1c0a8e2b3d4c5e6f7a8b11", title: "All the goals", media_type: "highlight" });
    const server = serve({
      event: () => eventWith(),
      highlights: (call) =>
        ok(pageOf((call.body as { type: string[] }).type.includes("recap") ? [highlight] : []).content),
      related: () => related,
    });
    await openEvent();
    await screen.findByTestId("player");
    await waitFor(() => expect(server.callsTo("/clip/list")).toHaveLength(2));
    await settle();
    // The highlights are in, the related videos not yet: nothing shows, not even a placeholder.
    expect(screen.queryByRole("heading", { name: "Game highlights" })).toBeNull();
    expect(document.querySelector(".rail")).toBeNull();

    const neighbour = apiEvent({ _id: "7c1c0a8e2b3d4c5e6f7a8b12", title: "Last week's derby" });
    answerRelated(ok(pageOf([neighbour]).content));
    expect(await screen.findByRole("heading", { name: "Game highlights" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Related videos" })).toBeTruthy();
    expect(screen.getByText("All the goals")).toBeTruthy();
    expect(screen.getByText("Last week's derby")).toBeTruthy();
    // Player highlights answered an empty page: no list, no heading.
    expect(screen.queryByRole("heading", { name: "Player highlights" })).toBeNull();
  });

  it("leaves out of the related videos what the highlight lists above already show", async () => {
    const highlight = apiEvent({ _id: "7c1c0a8e2b3d4c5e6f7a8b11", title: "All the goals", media_type: "highlight" });
    const neighbour = apiEvent({ _id: "7c1c0a8e2b3d4c5e6f7a8b12", title: "Last week's derby" });
    serve({
      event: () => eventWith(),
      highlights: (call) =>
        ok(pageOf((call.body as { type: string[] }).type.includes("recap") ? [highlight] : []).content),
      related: () => ok(pageOf([highlight, neighbour]).content),
    });
    await openEvent();
    const related = (await screen.findByRole("heading", { name: "Related videos" })).closest("section")!;
    expect(within(related).getByText("Last week's derby")).toBeTruthy();
    expect(within(related).queryByText("All the goals")).toBeNull();
    // Shown once, in the game highlights.
    expect(screen.getAllByText("All the goals")).toHaveLength(1);
  });

  it("starts the player at a shared link's time", async () => {
    serve({ event: () => eventWith() });
    await openEvent(`/events/${ID}?t=12m34s`);
    expect((await screen.findByTestId("player")).dataset.start).toBe("754");
  });

  it("shows the score and the game overview as home-versus-away bars", async () => {
    serve({
      event: () => eventWith(),
      stats: () =>
        ok({
          vidswap: {
            "game-scores": {
              homeTeam: { name: "Ashford Town", score: 2, periods: [1, 1] },
              awayTeam: { name: "Port Sable Albion", score: 1, periods: [0, 1] },
            },
            "game-overview": {
              groups: [
                {
                  name: "Match stats",
                  metrics: [
                    {
                      shortName: "POS",
                      name: "Possession",
                      filterId: "pos",
                      homeTeamValue: { text: "54%", number: 54 },
                      awayTeamValue: { text: "46%", number: 46 },
                    },
                    {
                      shortName: "SOT",
                      name: "Shots on target",
                      filterId: "sot",
                      homeTeamValue: { text: "3", number: 3 },
                      awayTeamValue: { text: "1", number: 1 },
                    },
                  ],
                },
              ],
            },
          },
        }),
    });
    await openEvent();
    const stats = await screen.findByRole("region", { name: /Match stats/ });
    expect(screen.getByLabelText("Score 2 to 1")).toBeTruthy();
    const fills = [...stats.querySelectorAll<HTMLElement>(".stat-bars__fill")].map((fill) => fill.style.inlineSize);
    // Percentages against 100, counts against both teams' total.
    expect(fills).toEqual(["54%", "46%", "75%", "25%"]);
    const periods = within(stats).getByRole("table", { name: "Score by period" });
    expect(
      within(periods)
        .getAllByRole("row")
        .map((row) => row.textContent),
      // A football game's periods are its halves.
    ).toEqual(["Team1st half2nd halfTotal", "Ashford Town112", "Port Sable Albion011"]);
  });

  it("leaves the stats out when they fail to load (spec §8)", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    serve({ event: () => eventWith(), stats: () => failure(500, "internal_error") });
    await openEvent();
    await screen.findByTestId("player");
    await waitFor(() => expect(console.warn).toHaveBeenCalledWith("Stats failed to load", expect.anything()));
    expect(screen.queryByRole("region", { name: /Match stats/ })).toBeNull();
  });

  it("puts the event on the watchlist and takes it off", async () => {
    signIn();
    const server = serve({ event: () => eventWith() });
    await openEvent();
    fireEvent.click(await screen.findByRole("button", { name: "Add to watchlist" }));
    expect(await screen.findByText("Added to your watchlist.")).toBeTruthy();
    expect(server.callsTo("/user/add_to_watchlist")[0].body).toEqual({ video_id: ID });
    fireEvent.click(screen.getByRole("button", { name: "On your watchlist" }));
    expect(await screen.findByText("Removed from your watchlist.")).toBeTruthy();
    expect(server.callsTo("/user/remove_from_watchlist")[0].body).toEqual({ video_id: ID });
  });

  it("shares a link that starts where the viewer is", async () => {
    serve({ event: () => eventWith() });
    await openEvent();
    await screen.findByTestId("player");
    fireEvent.click(screen.getByRole("button", { name: "Share" }));
    const link = screen.getByLabelText<HTMLInputElement>("Link to share");
    expect(link.value).toBe(`${window.location.origin}/events/${ID}`);
    expect(screen.getByLabelText<HTMLInputElement>("Start from the beginning").disabled).toBe(true);

    act(() => player.report!(754.6));
    fireEvent.click(screen.getByLabelText("Start at 12:34"));
    expect(link.value).toBe(`${window.location.origin}/events/${ID}?t=754`);
  });
});

describe("spoiler-free mode on the event page (issue 31 §1)", () => {
  // The app's start-up installs it (main.tsx); changing the mode then drops this client's answers.
  beforeAll(() => hideSpoilersInCalls(new QueryClient()));
  const scores = () =>
    ok({
      vidswap: {
        "game-scores": {
          homeTeam: { name: "Ashford Town", score: 3, periods: [] },
          awayTeam: { name: "Port Sable Albion", score: 1, periods: [] },
        },
      },
    });

  afterEach(async () => {
    signOutQuietly(); // the mode goes back off in this browser alone
    await setSpoilerFree(false);
    hideScoresAgain(ID);
  });

  it("shows no score and no key play ahead of the playhead until the viewer asks", async () => {
    await setSpoilerFree(true);
    signIn();
    const server = serve({
      event: () => eventWith({ status: "archived", title: "Ashford Town 3-1 Port Sable Albion" }),
      stats: scores,
      tags: { global: [tag({ _id: "a", title: "Goal", startTime: 754000 })], own: [] },
    });
    await openEvent();
    expect(await screen.findByText("Scores are hidden.")).toBeTruthy();
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Ashford Town vs Port Sable Albion");
    expect(document.title).not.toMatch(/3-1/);
    // No stats were asked for, and the moment at 12:34 waits until playback passes it.
    expect(server.callsTo("/event/stats")).toHaveLength(0);
    expect(screen.getByTestId("player").dataset.markers).toBe("");
    act(() => player.report?.(800));
    await waitFor(() => expect(screen.getByTestId("player").dataset.markers).toBe("754:Goal"));

    fireEvent.click(screen.getByRole("button", { name: "Show score" }));
    expect(await screen.findByLabelText("Score 3 to 1")).toBeTruthy();
    expect(server.callsTo("/event/stats").length).toBeGreaterThan(0);
  });

  it("asks for the event without scores, and with them once revealed", async () => {
    await setSpoilerFree(true);
    const server = serve({ event: () => eventWith({ status: "archived" }) });
    await openEvent();
    await screen.findByText("Scores are hidden.");
    expect(server.callsTo(`/event/get_by_id/id/${ID}`)[0].path).toContain("spoilers=hide");
    fireEvent.click(screen.getByRole("button", { name: "Show score" }));
    await waitFor(() => expect(server.callsTo(`/event/get_by_id/id/${ID}`).at(-1)?.path).not.toContain("spoilers"));
  });
});

describe("adding an event to a calendar (issue 31 §4)", () => {
  it("offers an upcoming event's calendar file", async () => {
    serve({ event: () => upcomingEvent() });
    await openEvent();
    const link = await screen.findByRole("link", { name: "Add to calendar" });
    expect(link.getAttribute("href")).toBe(`/api/event/calendar/${ID}.ics`);
    expect(link.hasAttribute("download")).toBe(true);
  });

  it("offers none for a match that has been played", async () => {
    serve({ event: () => eventWith({ status: "archived" }) });
    await openEvent();
    await screen.findByTestId("player");
    expect(screen.queryByRole("link", { name: "Add to calendar" })).toBeNull();
  });
});
