/*
 * The arithmetic of a live stream with rewind (DVR), on the media timeline the engine plays.
 *
 * The server's live playlists list a sliding window of finished segments (README "Live rewind")
 * and carry EXT-X-PROGRAM-DATE-TIME, so every media time has a wall-clock time. Stream time — what
 * markers, share links and clips speak of — is seconds since the stream's origin (the event's
 * kickoff) for live streams, and media time itself for VOD. Pure: no engine, no element.
 */

/** The seekable window of a live stream, in media seconds. */
export interface LiveWindow {
  start: number;
  end: number;
  /** EXT-X-TARGETDURATION: the longest segment. */
  targetDuration: number;
}

/** A point where media time and wall-clock time are known together (a segment's start and its PDT). */
export interface TimeAnchor {
  mediaTime: number;
  /** Epoch milliseconds. */
  wallClockMs: number;
}

/**
 * How many target durations from the window's start a seek stays. A window that is full slides a
 * segment every target duration: at its very start, the segment to play can leave the playlist
 * before it loads (a slow network, a busy machine), and hls.js then jumps to the live edge
 * (hls.js #4870). Three segments of room let the one sought load first.
 */
export const START_MARGIN_SEGMENTS = 3;

/**
 * The earliest time a seek may go to: the window's start plus START_MARGIN_SEGMENTS target
 * durations; a window shorter than that allows its last moment only.
 */
export function earliestSeekable(window: LiveWindow): number {
  return Math.min(window.start + START_MARGIN_SEGMENTS * window.targetDuration, Math.max(window.start, window.end));
}

/** A seek target inside the window, never closer to its start than `earliestSeekable`. */
export function clampSeek(target: number, window: LiveWindow): number {
  if (!Number.isFinite(target)) return earliestSeekable(window);
  return Math.min(Math.max(target, earliestSeekable(window)), Math.max(window.start, window.end));
}

/** How far behind the live position playback is, in seconds (never negative). */
export function secondsBehindLive(currentTime: number, livePosition: number): number {
  return Math.max(0, livePosition - currentTime);
}

/**
 * Whether playback counts as "at live": within one and a half target durations (at least 3 s) of
 * the live position. The position advances a segment at a time while playback advances smoothly,
 * so a viewer at live is always up to one segment behind it.
 */
export function isAtLive(behindSeconds: number, targetDuration: number): boolean {
  return behindSeconds <= Math.max(3, targetDuration * 1.5);
}

/** The anchor that governs `value` of `key`: the last one at or before it (the first otherwise). */
function governing(anchors: readonly TimeAnchor[], value: number, key: keyof TimeAnchor): TimeAnchor | null {
  if (!anchors.length) return null;
  let low = 0;
  let high = anchors.length - 1;
  if (value <= anchors[0][key]) return anchors[0];
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (anchors[mid][key] <= value) low = mid;
    else high = mid - 1;
  }
  return anchors[low];
}

/** The wall-clock time (epoch ms) of media time `mediaTime`; null without anchors. Anchors sorted. */
export function wallClockAt(mediaTime: number, anchors: readonly TimeAnchor[]): number | null {
  const anchor = governing(anchors, mediaTime, "mediaTime");
  return anchor ? anchor.wallClockMs + (mediaTime - anchor.mediaTime) * 1000 : null;
}

/** The media time at wall-clock time `wallClockMs` (epoch ms); null without anchors. Anchors sorted. */
export function mediaTimeAt(wallClockMs: number, anchors: readonly TimeAnchor[]): number | null {
  const anchor = governing(anchors, wallClockMs, "wallClockMs");
  return anchor ? anchor.mediaTime + (wallClockMs - anchor.wallClockMs) / 1000 : null;
}

/**
 * How media time and stream time relate: VOD streams are their own clock; live streams count
 * from `originMs` (epoch ms) through the program date-times.
 */
export type Timeline = { kind: "vod" } | { kind: "live"; originMs: number; anchors: readonly TimeAnchor[] };

/** Stream seconds at media time `mediaTime`; null while a live stream's anchors are unknown. */
export function toStreamTime(mediaTime: number, timeline: Timeline): number | null {
  if (timeline.kind === "vod") return mediaTime;
  const wallClock = wallClockAt(mediaTime, timeline.anchors);
  return wallClock === null ? null : (wallClock - timeline.originMs) / 1000;
}

/** Media time at stream second `streamSeconds`; null while a live stream's anchors are unknown. */
export function toMediaTime(streamSeconds: number, timeline: Timeline): number | null {
  if (timeline.kind === "vod") return streamSeconds;
  return mediaTimeAt(timeline.originMs + streamSeconds * 1000, timeline.anchors);
}

/** Where `time` lies between `start` and `end`, from 0 to 1; null outside (or an empty span). */
export function fractionOf(time: number, start: number, end: number): number | null {
  if (!(end > start) || time < start || time > end) return null;
  return (time - start) / (end - start);
}

/** "4:05", "1:02:03" (a minus sign before it for `negative`). */
export function formatClock(totalSeconds: number, negative = false): string {
  const whole = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const seconds = whole % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  const clock = hours ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
  return negative ? `−${clock}` : clock;
}

/** How much faster than real time a viewer near live plays to reach the target latency. */
export const CATCH_UP_RATE = 1.1;
/** Further behind the target than this (seconds), a viewer near live catches up... */
const CATCH_UP_FROM_S = 0.5;
/** ...until this close to it: between the two the rate stays as it is (no flapping). */
const CATCH_UP_UNTIL_S = 0.1;
/** With less than this buffered ahead, no catching up: it would only run into a stall. */
const CATCH_UP_BUFFER_S = 1;

/**
 * The playback rate of a live viewer whose latency is `distance` seconds beyond the player's
 * target (hls.js's `latency - targetLatency`), with `ahead` seconds buffered. hls.js starts a
 * viewer who opens a match mid-stream about two seconds later than its target and never catches
 * up (its own catch-up, `maxLiveSyncPlaybackRate`, also pulls a viewer who rewound: hls.js #6934).
 * Here only a viewer near live catches up: within one and a half target durations of the target
 * (`isAtLive`'s reach); one who rewound further plays at normal speed, where they chose.
 */
export function catchUpRate(distance: number, targetDuration: number, ahead: number, current: number): number {
  if (!isAtLive(distance, targetDuration) || ahead < CATCH_UP_BUFFER_S) return 1;
  if (distance > CATCH_UP_FROM_S) return CATCH_UP_RATE;
  if (distance < CATCH_UP_UNTIL_S) return 1;
  return current === CATCH_UP_RATE ? current : 1;
}
