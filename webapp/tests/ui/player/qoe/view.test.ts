// @vitest-environment node
import { describe, expect, it } from "vitest";
import { NUDGE_SECONDS, View, type Beacon, type Rendition } from "@/ui/player/qoe/view";

const LOW: Rendition = { bitrateKbps: 400, rendition: "234p" };
const HIGH: Rendition = { bitrateKbps: 1200, rendition: "360p" };
const T0 = Date.UTC(2026, 10, 30, 19, 0, 0);

/** A view on a clock the test moves, and the beacons it sent. */
function aView() {
  let now = T0;
  const beacons: Beacon[] = [];
  const view = new View({
    identity: {
      view: "view-0001",
      event: "5f1c0a8e2b3d4c5e6f7a8b9c",
      asset: "a1",
      player: "hls.js",
      playerVersion: "1.7.4",
    },
    emit: (beacon) => beacons.push(beacon),
    now: () => now,
  });
  return {
    view,
    beacons,
    /** The clock moves on by `ms`. */
    after(ms: number) {
      now += ms;
    },
    /** The beacons as `type ms` (the figures the server adds up). */
    story: () => beacons.map((b) => [b.type, b.ms ?? null] as const),
  };
}

describe("a view's beacons (one play attempt, Conviva's way)", () => {
  it("starts at the play intent and times the first frame from it, with the first rendition", () => {
    const { view, beacons, after } = aView();
    view.intent();
    after(1180);
    view.playing(LOW);
    expect(beacons).toEqual([
      {
        view: "view-0001",
        type: "start",
        event: "5f1c0a8e2b3d4c5e6f7a8b9c",
        asset: "a1",
        rendition: null,
        player: "hls.js",
        playerVersion: "1.7.4",
        at: "2026-11-30T19:00:00.000Z",
      },
      {
        view: "view-0001",
        type: "startup",
        event: "5f1c0a8e2b3d4c5e6f7a8b9c",
        asset: "a1",
        rendition: "234p",
        player: "hls.js",
        playerVersion: "1.7.4",
        at: "2026-11-30T19:00:01.180Z",
        ms: 1180,
        bitrateKbps: 400,
      },
    ]);
  });

  it("sends nothing before the play intent, and a second intent changes nothing", () => {
    const { view, beacons, after, story } = aView();
    view.playing(LOW); // no intent seen: nothing to time from
    view.waiting();
    expect(beacons).toEqual([]);
    view.intent();
    after(500);
    view.intent();
    view.playing(LOW);
    expect(story()).toEqual([
      ["start", null],
      ["startup", 500],
    ]);
  });

  it("waiting before the first frame is the startup, not a stall", () => {
    const { view, after, story } = aView();
    view.intent();
    view.waiting();
    after(2000);
    view.playing(LOW);
    expect(story()).toEqual([
      ["start", null],
      ["startup", 2000],
    ]);
  });

  it("a stall after the first frame is a rebuffer as long as it lasted, and its time is not watched", () => {
    const { view, after, story } = aView();
    view.intent();
    after(800);
    view.playing(LOW);
    after(4000);
    view.waiting();
    after(2600);
    view.playing(LOW);
    after(3000);
    view.watched();
    expect(story()).toEqual([
      ["start", null],
      ["startup", 800],
      ["rebuffer", 2600],
      ["watched", 7000],
    ]);
  });

  it("waiting for a seek the viewer asked for is no stall, until frames play again", () => {
    const { view, after, story } = aView();
    view.intent();
    view.playing(LOW);
    after(5000);
    view.seeking(10); // J: back 10 s
    view.waiting(); // the segment it landed in loads
    after(1500);
    view.playing(LOW);
    after(1000);
    view.watched();
    expect(story()).toEqual([
      ["start", null],
      ["startup", 0],
      ["watched", 6000],
    ]);
  });

  it(`hls.js's own small jumps out of a stall (up to ${NUDGE_SECONDS} s) do not end it`, () => {
    const { view, after, story } = aView();
    view.intent();
    view.playing(LOW);
    view.waiting();
    after(1000);
    view.seeking(0.1);
    after(1000);
    view.seeking(2);
    after(1000);
    view.playing(LOW);
    expect(story().at(-1)).toEqual(["rebuffer", 3000]);
  });

  it("a viewer's seek out of a stall ends the stall there; the seek's waiting is not added", () => {
    const { view, after, story } = aView();
    view.intent();
    view.playing(LOW);
    view.waiting();
    after(1200);
    view.seeking(30);
    view.waiting();
    after(4000);
    view.playing(LOW);
    expect(story()).toEqual([
      ["start", null],
      ["startup", 0],
      ["rebuffer", 1200],
    ]);
  });

  it("a pause ends a stall, and paused time is not watched", () => {
    const { view, after, story } = aView();
    view.intent();
    view.playing(LOW);
    after(2000);
    view.waiting();
    after(700);
    view.paused();
    after(60_000);
    view.playing(LOW);
    after(1000);
    view.watched();
    expect(story()).toEqual([
      ["start", null],
      ["startup", 0],
      ["rebuffer", 700],
      ["watched", 3000],
    ]);
  });

  it("a change of rendition reports the time at the old one first, then the new bitrate", () => {
    const { view, beacons, after } = aView();
    view.intent();
    view.playing(LOW);
    after(6000);
    view.level(LOW); // the same: nothing
    view.level({ bitrateKbps: null, rendition: null }); // not known for a moment: nothing
    view.level(HIGH);
    after(4000);
    view.watched();
    expect(
      beacons.slice(2).map(({ type, ms, bitrateKbps, rendition }) => ({ type, ms, bitrateKbps, rendition })),
    ).toEqual([
      { type: "watched", ms: 6000, bitrateKbps: 400, rendition: "234p" },
      { type: "bitrate", ms: undefined, bitrateKbps: 1200, rendition: "360p" },
      { type: "watched", ms: 4000, bitrateKbps: 1200, rendition: "360p" },
    ]);
  });

  it("a view left after its first frame exits with the time played since the last watched", () => {
    const { view, beacons, after, story } = aView();
    view.intent();
    view.playing(LOW);
    after(10_000);
    view.watched();
    after(3500);
    view.exit();
    view.exit(); // once
    view.playing(LOW); // nothing after the exit
    expect(story()).toEqual([
      ["start", null],
      ["startup", 0],
      ["watched", 10_000],
      ["exit", 3500],
    ]);
    expect(beacons.at(-1)).toMatchObject({ type: "exit", beforeStart: false, bitrateKbps: 400 });
  });

  it("a view left before its first frame exits with beforeStart", () => {
    const { view, beacons, after } = aView();
    view.intent();
    after(3000);
    view.exit();
    expect(beacons.map((b) => b.type)).toEqual(["start", "exit"]);
    expect(beacons[1]).toMatchObject({ ms: 0, beforeStart: true, rendition: null });
  });

  it("a view left during a stall reports the stall up to then", () => {
    const { view, after, story } = aView();
    view.intent();
    view.playing(LOW);
    after(1000);
    view.waiting();
    after(2500);
    view.exit();
    expect(story().slice(2)).toEqual([
      ["rebuffer", 2500],
      ["exit", 1000],
    ]);
  });

  it("a view that ends before any play intent was no play attempt: it reports nothing", () => {
    const { view, beacons } = aView();
    view.error({ code: "forbidden:manifestLoadError", fatal: true, business: true });
    view.exit();
    view.intent();
    expect(beacons).toEqual([]);
  });

  it("an error before the intent (under the pre-roll) is reported once the view starts; a fatal one ends it", () => {
    const { view, beacons } = aView();
    view.error({ code: "network:manifestLoadError", fatal: true, business: false });
    view.intent();
    expect(beacons.map((b) => b.type)).toEqual(["start", "error", "exit"]);
    expect(beacons[1]).toMatchObject({ code: "network:manifestLoadError", fatal: true, business: false });
    expect(beacons[2]).toMatchObject({ beforeStart: true });
    expect(view.ended).toBe(true);
  });

  it("a recovered error goes on, and the same one again is not repeated", () => {
    const { view, beacons } = aView();
    view.intent();
    view.playing(LOW);
    const stalled = { code: "stalled", fatal: false, business: false };
    view.error(stalled);
    view.error(stalled);
    view.error({ code: "media:bufferAppendError", fatal: false, business: false });
    expect(beacons.filter((b) => b.type === "error").map((b) => b.code)).toEqual([
      "stalled",
      "media:bufferAppendError",
    ]);
    expect(view.ended).toBe(false);
  });
});
