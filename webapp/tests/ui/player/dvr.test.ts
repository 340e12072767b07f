// @vitest-environment node
import { describe, expect, it } from "vitest";
import {
  CATCH_UP_RATE,
  catchUpRate,
  clampSeek,
  earliestSeekable,
  formatClock,
  fractionOf,
  isAtLive,
  mediaTimeAt,
  secondsBehindLive,
  toMediaTime,
  toStreamTime,
  wallClockAt,
  type LiveWindow,
  type TimeAnchor,
  type Timeline,
} from "@/ui/player/dvr";

// A half-hour window of 2 s segments, as the server's live playlists offer it.
const WINDOW: LiveWindow = { start: 100, end: 1900, targetDuration: 2 };

describe("seeking within a live window", () => {
  it("stays three target durations off the window's start (its first segments slide out; hls.js would jump to live)", () => {
    expect(earliestSeekable(WINDOW)).toBe(106);
    expect(clampSeek(100, WINDOW)).toBe(106);
    expect(clampSeek(0, WINDOW)).toBe(106);
    expect(clampSeek(-5, WINDOW)).toBe(106);
  });

  it("keeps seeks inside the window as they are", () => {
    expect(clampSeek(106, WINDOW)).toBe(106);
    expect(clampSeek(1000.5, WINDOW)).toBe(1000.5);
    expect(clampSeek(1900, WINDOW)).toBe(1900);
  });

  it("stops seeks past the live edge at the edge", () => {
    expect(clampSeek(2500, WINDOW)).toBe(1900);
  });

  it("allows only the end of a window shorter than the margin (a game that just kicked off)", () => {
    const short: LiveWindow = { start: 50, end: 51, targetDuration: 2 };
    expect(earliestSeekable(short)).toBe(51);
    expect(clampSeek(10, short)).toBe(51);
  });

  it("goes to the earliest seekable time when asked for no number", () => {
    expect(clampSeek(Number.NaN, WINDOW)).toBe(106);
  });
});

describe("being at live", () => {
  it("measures how far behind the live position playback is, never below zero", () => {
    expect(secondsBehindLive(1834, 1894)).toBe(60);
    expect(secondsBehindLive(1895, 1894)).toBe(0);
  });

  it("counts up to one and a half target durations (at least 3 s) behind as live", () => {
    expect(isAtLive(0, 2)).toBe(true);
    expect(isAtLive(3, 2)).toBe(true);
    expect(isAtLive(3.1, 2)).toBe(false);
    expect(isAtLive(8.9, 6)).toBe(true);
    expect(isAtLive(9.5, 6)).toBe(false);
    expect(isAtLive(60, 2)).toBe(false);
  });
});

// A live playlist that wrapped its loop once: each discontinuity starts a new anchor.
const KICKOFF = Date.UTC(2026, 10, 24, 15, 0, 0);
const ANCHORS: TimeAnchor[] = [
  { mediaTime: 100, wallClockMs: KICKOFF + 600_000 },
  { mediaTime: 124, wallClockMs: KICKOFF + 624_000 },
  { mediaTime: 148, wallClockMs: KICKOFF + 648_500 },
];
const LIVE: Timeline = { kind: "live", originMs: KICKOFF, anchors: ANCHORS };

describe("media time and wall-clock time", () => {
  it("follows the program date-time of the segment playing", () => {
    expect(wallClockAt(100, ANCHORS)).toBe(KICKOFF + 600_000);
    expect(wallClockAt(110.5, ANCHORS)).toBe(KICKOFF + 610_500);
    expect(wallClockAt(150, ANCHORS)).toBe(KICKOFF + 650_500);
  });

  it("extends the first anchor backwards for times before it", () => {
    expect(wallClockAt(90, ANCHORS)).toBe(KICKOFF + 590_000);
  });

  it("maps wall-clock times back to media time, across discontinuities", () => {
    expect(mediaTimeAt(KICKOFF + 610_500, ANCHORS)).toBe(110.5);
    expect(mediaTimeAt(KICKOFF + 650_500, ANCHORS)).toBe(150);
  });

  it("knows nothing without anchors", () => {
    expect(wallClockAt(10, [])).toBeNull();
    expect(mediaTimeAt(KICKOFF, [])).toBeNull();
  });
});

describe("stream time", () => {
  it("is media time for VOD", () => {
    expect(toStreamTime(42.5, { kind: "vod" })).toBe(42.5);
    expect(toMediaTime(42.5, { kind: "vod" })).toBe(42.5);
  });

  it("is seconds since the origin (the kickoff) for live streams", () => {
    expect(toStreamTime(100, LIVE)).toBe(600);
    expect(toStreamTime(150, LIVE)).toBe(650.5);
  });

  it("turns a share link's stream time into the media time that shows it", () => {
    expect(toMediaTime(600, LIVE)).toBe(100);
    expect(toMediaTime(650.5, LIVE)).toBe(150);
    for (const media of [101, 123.9, 130, 170])
      expect(toMediaTime(toStreamTime(media, LIVE)!, LIVE)).toBeCloseTo(media);
  });

  it("is unknown until a live stream's playlist has program date-times", () => {
    const unknown: Timeline = { kind: "live", originMs: KICKOFF, anchors: [] };
    expect(toStreamTime(100, unknown)).toBeNull();
    expect(toMediaTime(600, unknown)).toBeNull();
  });
});

describe("positions on the seek bar", () => {
  it("places a time by its share of the span", () => {
    expect(fractionOf(600, 500, 700)).toBe(0.5);
    expect(fractionOf(500, 500, 700)).toBe(0);
    expect(fractionOf(700, 500, 700)).toBe(1);
  });

  it("leaves out times outside the span (a tag from before the rewind window)", () => {
    expect(fractionOf(499, 500, 700)).toBeNull();
    expect(fractionOf(701, 500, 700)).toBeNull();
    expect(fractionOf(5, 10, 10)).toBeNull();
  });
});

describe("clock text", () => {
  it("writes minutes and seconds, and hours when there are some", () => {
    expect(formatClock(0)).toBe("0:00");
    expect(formatClock(65.9)).toBe("1:05");
    expect(formatClock(3723)).toBe("1:02:03");
    expect(formatClock(65, true)).toBe("−1:05");
    expect(formatClock(-4)).toBe("0:00");
  });
});

describe("catching up with live", () => {
  it("plays a viewer who opened mid-stream, two seconds later than the target, a little faster", () => {
    expect(catchUpRate(2, 2, 6, 1)).toBe(CATCH_UP_RATE);
  });

  it("goes on catching up until within a tenth of a second, then plays at normal speed", () => {
    expect(catchUpRate(0.3, 2, 6, CATCH_UP_RATE)).toBe(CATCH_UP_RATE);
    expect(catchUpRate(0.05, 2, 6, CATCH_UP_RATE)).toBe(1);
    // Near the target but never behind it by more than half a second: no speeding up.
    expect(catchUpRate(0.3, 2, 6, 1)).toBe(1);
  });

  it("leaves a viewer who rewound at normal speed, where they chose", () => {
    expect(catchUpRate(30, 2, 6, 1)).toBe(1);
    expect(catchUpRate(30, 2, 6, CATCH_UP_RATE)).toBe(1);
  });

  it("never speeds into a stall: with under a second buffered ahead it plays at normal speed", () => {
    expect(catchUpRate(2, 2, 0.5, CATCH_UP_RATE)).toBe(1);
  });
});
