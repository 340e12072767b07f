import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { mapEvent } from "@/entities/event";
import type { EventPlayerHandle } from "@/features/watching/event/EventPlayer";
import { createStreamClock, type StreamClock } from "@/features/watching/event/streamClock";
import {
  REPORT_EVERY_MS,
  keepsPosition,
  usePlaybackPosition,
  type PlaybackPositionOptions,
} from "@/features/watching/event/usePlaybackPosition";
import { apiEvent } from "../../../support/fixtures";
import { ok, signIn, signOutQuietly } from "../../../session/fakeServer";

const ID = "d2aefc184837b3fb7057f13a";
const ARCHIVED = mapEvent(
  apiEvent({
    status: "archived",
    content: {
      HLSStream: "/media/vod/football/index.m3u8?token=token",
      PanoStream: null,
      PosterH: null,
      MezzanineVideo: null,
      EPG: null,
    },
  }),
);
const LIVE = mapEvent(apiEvent());

interface Sent {
  path: string;
  body: { video_id: string; position: number; duration: number } | undefined;
  keepalive: boolean;
}

/** The server: the saved position to answer with, and every call the hook made. */
function server(saved: { position: number; duration: number } | null) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      const text = await request.text();
      sent.push({
        path: url.pathname.replace(/^\/api/, ""),
        body: text ? JSON.parse(text) : undefined,
        keepalive: request.keepalive,
      });
      if (url.pathname === "/api/user/get_playback_position")
        return ok(saved && { video_id: ID, ...saved, updated: "2026-11-28T06:00:00Z" });
      const body = JSON.parse(text);
      return ok({ ...body, updated: "2026-11-28T06:00:00Z" });
    }),
  );
  return {
    lookups: () => sent.filter((call) => call.path === "/user/get_playback_position"),
    saves: () => sent.filter((call) => call.path === "/user/save_playback_position"),
  };
}

/** A player standing in for the real one: where it is, how long the video is, and spies. */
function fakePlayer(time: number | null = null) {
  const state = { time, end: 5400 as number | null };
  const handle: EventPlayerHandle = {
    streamTime: () => state.time,
    streamEnd: () => state.end,
    seekTo: vi.fn(),
    play: vi.fn(async () => undefined),
    pause: vi.fn(),
    playClip: vi.fn(),
  };
  return { state, handle, ref: { current: handle } };
}

function renderUse(
  options: Partial<PlaybackPositionOptions> & { clock: StreamClock; player: { current: EventPlayerHandle | null } },
) {
  const root = document.createElement("div");
  const video = document.createElement("video");
  root.append(video);
  document.body.append(root);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const initial: PlaybackPositionOptions = {
    event: ARCHIVED,
    root: { current: root },
    signedIn: true,
    startAt: null,
    suspended: false,
    ...options,
  };
  const view = renderHook((props: PlaybackPositionOptions) => usePlaybackPosition(props), {
    wrapper,
    initialProps: initial,
  });
  return { ...view, video, initial, client };
}

/**
 * The hook's report timer, run by hand: `tick(n)` is n periods of REPORT_EVERY_MS passing (fake
 * timers would stop Testing Library's own polling).
 */
function reportTimer() {
  const callbacks: (() => void)[] = [];
  const original = window.setInterval.bind(window);
  vi.spyOn(window, "setInterval").mockImplementation(((handler: () => void, delay?: number) => {
    if (delay === REPORT_EVERY_MS) callbacks.push(handler);
    return original(handler, delay);
  }) as typeof window.setInterval);
  return (periods = 1) => {
    for (let i = 0; i < periods; i += 1) for (const callback of callbacks) callback();
  };
}

beforeEach(() => {
  signIn();
});

afterEach(() => {
  cleanup(); // unmounted (its last report sent) while the fake server still answers
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  signOutQuietly();
  document.body.innerHTML = "";
});

describe("usePlaybackPosition", () => {
  it("keeps positions of archived events and clips only", () => {
    expect(keepsPosition(ARCHIVED)).toBe(true);
    expect(keepsPosition(mapEvent(apiEvent({ status: "vod", media_type: "highlight" })))).toBe(true);
    expect(keepsPosition(LIVE)).toBe(false);
    expect(keepsPosition(mapEvent(apiEvent({ status: "upcoming" })))).toBe(false);
    expect(keepsPosition(mapEvent(apiEvent({ status: "channel" })))).toBe(false);
  });

  it("resumes at the saved position once playback begins, and starts over on request", async () => {
    const api = server({ position: 754, duration: 5400 });
    const clock = createStreamClock();
    const player = fakePlayer();
    const { result, unmount } = renderUse({ clock, player: player.ref });
    await waitFor(() => expect(api.lookups()).toHaveLength(1));
    expect(api.lookups()[0]).toMatchObject({ path: "/user/get_playback_position" });
    expect(player.handle.seekTo).not.toHaveBeenCalled(); // nothing plays yet

    player.state.time = 0;
    act(() => clock.set(0));
    await waitFor(() => expect(player.handle.seekTo).toHaveBeenCalledWith(754));
    expect(result.current.resumedAt).toBe(754);

    act(() => result.current.startOver());
    expect(player.handle.seekTo).toHaveBeenLastCalledWith(0);
    expect(player.handle.play).toHaveBeenCalled();
    expect(result.current.resumedAt).toBeNull();

    unmount(); // leaving right away: where it is now is what counts
    await waitFor(() => expect(api.saves()).toHaveLength(1));
    expect(api.saves()[0].body).toMatchObject({ position: 0, duration: 5400 });
  });

  it("resumes at once when playback had begun before the answer came", async () => {
    const api = server({ position: 300, duration: 1000 });
    const clock = createStreamClock();
    const player = fakePlayer(2);
    clock.set(2);
    const { result, unmount } = renderUse({ clock, player: player.ref });
    await waitFor(() => expect(result.current.resumedAt).toBe(300));
    expect(player.handle.seekTo).toHaveBeenCalledTimes(1);
    expect(api.lookups()).toHaveLength(1);
    player.state.time = 300;
    unmount();
    await waitFor(() => expect(api.saves()).toHaveLength(1));
    expect(api.saves()[0]).toMatchObject({ body: { position: 300, duration: 5400 }, keepalive: true });
  });

  it("reports every ten seconds while playing, on pause, and as a keepalive request when the page goes", async () => {
    const tick = reportTimer();
    const api = server(null);
    const clock = createStreamClock();
    const player = fakePlayer(0);
    const { video, unmount } = renderUse({ clock, player: player.ref });
    await waitFor(() => expect(api.lookups()).toHaveLength(1));
    act(() => clock.set(0));

    player.state.time = 12.4;
    act(() => tick());
    await waitFor(() => expect(api.saves()).toHaveLength(1));
    expect(api.saves()[0]).toMatchObject({
      body: { video_id: ID, position: 12.4, duration: 5400 },
      keepalive: false,
    });

    // Paused: one report of where it stopped, then nothing more while it does not move.
    player.state.time = 15;
    act(() => void video.dispatchEvent(new Event("pause")));
    await waitFor(() => expect(api.saves()).toHaveLength(2));
    expect(api.saves()[1].body?.position).toBe(15);
    act(() => tick(3));
    expect(api.saves()).toHaveLength(2);

    player.state.time = 40;
    act(() => void document.dispatchEvent(new Event("visibilitychange"))); // still visible: nothing
    expect(api.saves()).toHaveLength(2);
    player.state.time = 61;
    unmount();
    await waitFor(() => expect(api.saves()).toHaveLength(3));
    expect(api.saves()[2]).toMatchObject({ body: { position: 61 }, keepalive: true });
  });

  it("never reports a position past the video's end", async () => {
    const tick = reportTimer();
    const api = server(null);
    const clock = createStreamClock();
    const player = fakePlayer(0);
    player.state.end = 100;
    renderUse({ clock, player: player.ref });
    await waitFor(() => expect(api.lookups()).toHaveLength(1));
    player.state.time = 100.3;
    act(() => tick());
    await waitFor(() => expect(api.saves()).toHaveLength(1));
    expect(api.saves()[0].body).toMatchObject({ position: 100, duration: 100 });
  });

  it("does not report while a viewer's clip plays in the player", async () => {
    const tick = reportTimer();
    const api = server(null);
    const clock = createStreamClock();
    const player = fakePlayer(30);
    const { rerender, initial } = renderUse({ clock, player: player.ref });
    await waitFor(() => expect(api.lookups()).toHaveLength(1));
    rerender({ ...initial, suspended: true });
    player.state.time = 8;
    act(() => tick(2));
    await Promise.resolve();
    expect(api.saves()).toHaveLength(0);
  });

  it("starts at a share link's moment instead of asking where the viewer stopped", async () => {
    const tick = reportTimer();
    const api = server({ position: 754, duration: 5400 });
    const clock = createStreamClock();
    const player = fakePlayer(0);
    renderUse({ clock, player: player.ref, startAt: 90 });
    act(() => clock.set(90));
    player.state.time = 95;
    act(() => tick());
    await waitFor(() => expect(api.saves()).toHaveLength(1));
    expect(api.lookups()).toHaveLength(0);
    expect(player.handle.seekTo).not.toHaveBeenCalled();
  });

  it("neither asks nor reports for a live event or an anonymous viewer", async () => {
    const tick = reportTimer();
    const api = server({ position: 754, duration: 5400 });
    const clock = createStreamClock();
    const player = fakePlayer(120);
    const live = renderUse({ clock, player: player.ref, event: LIVE });
    const anonymous = renderUse({ clock, player: player.ref, signedIn: false });
    act(() => clock.set(120));
    act(() => tick(3));
    live.unmount();
    anonymous.unmount();
    await Promise.resolve();
    expect(api.lookups()).toHaveLength(0);
    expect(api.saves()).toHaveLength(0);
  });
});
