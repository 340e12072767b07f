import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { MediaRequest } from "@/ui/player/qoe/mediaRequests";
import { PlayerReport, WATCHED_EVERY_MS, type ReportedEngine } from "@/ui/player/qoe/playerReport";
import type { Beacon } from "@/ui/player/qoe/view";

const EVENT = "5f1c0a8e2b3d4c5e6f7a8b9c";
const LIVE = "/media/live/asset-7/from-1767225600/index.m3u8?token=1767229200.AbC-_09xYz12345678901q";
const CLIP = "/media/vod/clip-9/clip-0-4000/index.m3u8?token=1767229200.AbC-_09xYz12345678901q";
const SEGMENT: MediaRequest = {
  object: "av",
  durationMs: 2000,
  bitrateKbps: 400,
  bufferMs: 0,
  throughputKbps: null,
  urgent: true,
  live: true,
  rate: 1,
};

/** A <video> whose state the test sets, and the media events it fires. */
function fakeVideo() {
  const video = document.createElement("video");
  const state = { paused: true, seeking: false, ended: false, currentTime: 0, readyState: 0 };
  for (const key of Object.keys(state) as (keyof typeof state)[])
    Object.defineProperty(video, key, { configurable: true, get: () => state[key] });
  const fire = (type: string, change: Partial<typeof state> = {}) => {
    Object.assign(state, change);
    video.dispatchEvent(new Event(type));
  };
  return { video, state, fire };
}

function fakeEngine(): ReportedEngine & { bitrate: number | null; height: number | null } {
  return {
    player: { name: "hls.js", version: "1.7.4" },
    bitrate: 400_000,
    height: 234,
    playingBitrate() {
      return this.bitrate;
    },
    playingHeight() {
      return this.height;
    },
  };
}

/** A report on a fake video and engine; every view is sampled unless `draws` says otherwise. */
function aReport({ sampleRate = 1, draws = [] as number[] } = {}) {
  const { video, state, fire } = fakeVideo();
  const engine = fakeEngine();
  const beacons: Beacon[] = [];
  let ids = 0;
  const report = new PlayerReport(video, engine, {
    sampleRate,
    emit: (beacon) => beacons.push(beacon),
    random: () => draws.shift() ?? 0,
    newId: () => `view-${String((ids += 1)).padStart(4, "0")}`,
  });
  /** The page's player asks to play, and frames play. */
  const plays = () => {
    fire("play", { paused: false });
    fire("playing", { readyState: HTMLMediaElement.HAVE_ENOUGH_DATA });
  };
  return { report, video, state, fire, engine, beacons, plays, types: () => beacons.map((b) => `${b.view} ${b.type}`) };
}

describe("a player's QoE report", () => {
  beforeEach(() => vi.useFakeTimers({ now: Date.UTC(2026, 10, 30, 19) }));
  afterEach(() => vi.useRealTimers());

  it("begins a view with each source, named after the event, the asset in its address and hls.js", () => {
    const { report, beacons, plays } = aReport();
    report.begin(LIVE, EVENT);
    vi.advanceTimersByTime(900);
    plays();
    expect(beacons).toEqual([
      expect.objectContaining({ view: "view-0001", type: "start", event: EVENT, asset: "asset-7", rendition: null }),
      expect.objectContaining({
        type: "startup",
        ms: 0, // the play intent came with the `play`, after the page loaded the source
        bitrateKbps: 400,
        rendition: "234p",
        player: "hls.js",
        playerVersion: "1.7.4",
      }),
    ]);
  });

  it("times the startup from the play intent to the first frame", () => {
    const { report, fire, beacons } = aReport();
    report.begin(LIVE, EVENT);
    fire("play", { paused: false });
    vi.advanceTimersByTime(1240);
    fire("playing", { readyState: HTMLMediaElement.HAVE_ENOUGH_DATA });
    expect(beacons[1]).toMatchObject({ type: "startup", ms: 1240 });
  });

  it("ends the view under way when another source loads (a clip): a new view, a new id", () => {
    const { report, beacons, plays, types } = aReport();
    report.begin(LIVE, EVENT);
    plays();
    vi.advanceTimersByTime(3000);
    report.begin(CLIP, EVENT);
    plays();
    expect(types()).toEqual([
      "view-0001 start",
      "view-0001 startup",
      "view-0001 exit",
      "view-0002 start",
      "view-0002 startup",
    ]);
    expect(beacons[2]).toMatchObject({ ms: 3000, beforeStart: false });
    expect(beacons[3]).toMatchObject({ asset: "clip-9" });
  });

  it("draws each view's sampling on its own: one not drawn sends nothing but still has its CMCD", () => {
    const { report, plays, types } = aReport({ sampleRate: 0.5, draws: [0.7, 0.2] });
    report.begin(LIVE, EVENT);
    plays();
    expect(report.address("https://x/s.ts", SEGMENT)).toContain("sid%3D%22view-0001%22");
    report.begin(LIVE, EVENT);
    plays();
    expect(types()).toEqual(["view-0002 start", "view-0002 startup"]);
  });

  it("a source that is no event's begins no view, and playing it reports nothing", () => {
    const { report, plays, types } = aReport();
    report.begin(LIVE, EVENT);
    plays();
    report.begin("/media/vod/trailer/index.m3u8", null);
    plays();
    expect(types()).toEqual(["view-0001 start", "view-0001 startup", "view-0001 exit"]);
    expect(report.address("https://x/s.ts", SEGMENT)).toBe("https://x/s.ts");
  });

  it("with a sample rate of 0 reports no view at all", () => {
    const { report, plays, fire, beacons } = aReport({ sampleRate: 0 });
    report.begin(LIVE, EVENT);
    plays();
    fire("waiting");
    vi.advanceTimersByTime(WATCHED_EVERY_MS * 3);
    report.destroy();
    expect(beacons).toEqual([]);
  });

  it("gives each media request of the view its CMCD: sid the view's id, cid the event", () => {
    const { report, fire } = aReport();
    expect(report.address("https://x/s.ts?token=abc", SEGMENT)).toBe("https://x/s.ts?token=abc"); // no view yet
    report.begin(LIVE, EVENT);
    const address = new URL(report.address("https://x/s.ts?token=abc", SEGMENT));
    expect(address.searchParams.get("token")).toBe("abc");
    expect(address.searchParams.get("CMCD")).toBe(
      `bl=0,br=400,cid="${EVENT}",d=2000,ot=av,sf=h,sid="view-0001",st=l,su`,
    );
    fire("ended", { ended: true, paused: true });
    expect(report.address("https://x/s.ts", SEGMENT)).toBe("https://x/s.ts");
  });

  it("a fatal error ends the view; playing again (the player's retry) is a new view of the same source", () => {
    const { report, plays, beacons, types } = aReport();
    report.begin(LIVE, EVENT);
    plays();
    report.error({ kind: "network", detail: "fragLoadError" });
    expect(report.viewId).toBeNull();
    plays();
    expect(types()).toEqual([
      "view-0001 start",
      "view-0001 startup",
      "view-0001 error",
      "view-0001 exit",
      "view-0002 start",
      "view-0002 startup",
    ]);
    expect(beacons[2]).toMatchObject({ code: "network:fragLoadError", fatal: true, business: false });
    expect(beacons[4]).toMatchObject({ asset: "asset-7" });
  });

  it("a stall is waiting outside a seek; the viewer's seek's own waiting is not", () => {
    const { report, plays, fire, beacons } = aReport();
    report.begin(LIVE, EVENT);
    plays();
    fire("timeupdate", { currentTime: 30 });
    // J: back 10 s, and the segment there loads.
    fire("seeking", { seeking: true, currentTime: 20 });
    fire("waiting", { readyState: HTMLMediaElement.HAVE_METADATA });
    vi.advanceTimersByTime(1500);
    fire("seeked", { seeking: false });
    fire("waiting");
    vi.advanceTimersByTime(500);
    fire("playing", { readyState: HTMLMediaElement.HAVE_ENOUGH_DATA });
    fire("timeupdate", { currentTime: 24 });
    // Then the data runs out; hls.js nudges the playhead a little, then frames play again.
    fire("waiting", { readyState: HTMLMediaElement.HAVE_CURRENT_DATA });
    vi.advanceTimersByTime(2000);
    fire("seeking", { seeking: true, currentTime: 24.1 });
    fire("seeked", { seeking: false });
    vi.advanceTimersByTime(1000);
    fire("playing", { readyState: HTMLMediaElement.HAVE_ENOUGH_DATA });
    expect(beacons.filter((b) => b.type === "rebuffer").map((b) => b.ms)).toEqual([3000]);
  });

  it("a seek within what is buffered plays on without a `playing`: no stall is left open", () => {
    const { report, plays, fire, beacons } = aReport();
    report.begin(LIVE, EVENT);
    plays();
    fire("timeupdate", { currentTime: 30 });
    fire("seeking", { seeking: true, currentTime: 20 });
    fire("seeked", { seeking: false });
    vi.advanceTimersByTime(4000);
    report.end();
    expect(beacons.map((b) => b.type)).toEqual(["start", "startup", "exit"]);
    expect(beacons[2].ms).toBe(4000);
  });

  it("reports the time watched every few seconds while playing, and a new rendition when it shows", () => {
    const { report, plays, fire, engine, beacons } = aReport();
    report.begin(LIVE, EVENT);
    plays();
    vi.advanceTimersByTime(WATCHED_EVERY_MS);
    engine.bitrate = 1_200_000;
    engine.height = 360;
    vi.advanceTimersByTime(2000);
    fire("timeupdate", { currentTime: 12 });
    expect(beacons.slice(2).map(({ type, ms, bitrateKbps, rendition }) => [type, ms, bitrateKbps, rendition])).toEqual([
      ["watched", WATCHED_EVERY_MS, 400, "234p"],
      ["watched", 2000, 400, "234p"],
      ["bitrate", undefined, 1200, "360p"],
    ]);
  });

  it("a paused player watches nothing", () => {
    const { report, plays, fire, beacons } = aReport();
    report.begin(LIVE, EVENT);
    plays();
    vi.advanceTimersByTime(1000);
    fire("pause", { paused: true });
    vi.advanceTimersByTime(WATCHED_EVERY_MS * 3);
    expect(beacons.filter((b) => b.type === "watched").map((b) => b.ms)).toEqual([1000]);
  });

  it("a recording played to its end ends the view; playing it again is another", () => {
    const { report, plays, fire, types } = aReport();
    report.begin(CLIP, EVENT);
    plays();
    fire("pause", { paused: true, ended: true });
    fire("ended");
    plays();
    expect(types()).toEqual([
      "view-0001 start",
      "view-0001 startup",
      "view-0001 exit",
      "view-0002 start",
      "view-0002 startup",
    ]);
  });

  it("when the player goes, its view exits and nothing more is heard", () => {
    const { report, plays, fire, types } = aReport();
    report.begin(LIVE, EVENT);
    plays();
    report.destroy();
    fire("play");
    fire("waiting");
    vi.advanceTimersByTime(WATCHED_EVERY_MS * 2);
    expect(types()).toEqual(["view-0001 start", "view-0001 startup", "view-0001 exit"]);
  });
});
