/*
 * Seek previews of a live stream's rewind window (issue 29 §5). While a live input records, the
 * server makes a small picture every few seconds and a WebVTT of them beside the recording, which
 * the live stream's directory serves (`live/<asset>/from-<kickoff>/thumbnails.vtt`, under its token). A live player's clock starts
 * wherever it joined, so the VTT's own times (places in the recording) mean nothing here: each cue's
 * identifier carries its picture's wall-clock time (`at-<epoch ms>`), which the stream's program
 * date-times place on this player's timeline (./dvr mediaTimeAt). The player reads the VTT again
 * every LIVE_REFRESH_MS and puts the cues on a track of its own (`liveTrack`), labelled as
 * media-chrome looks for. The pictures lag the live edge by a few segments.
 */
import { mediaTimeAt, type TimeAnchor } from "./dvr";
import { besideStream, parseSignedUrl } from "./streamUrl";
import { THUMBNAILS_LABEL } from "./thumbnails";

export const LIVE_REFRESH_MS = 8_000;
/** A live input's master (`live/<asset id>/from-<kickoff>/index.m3u8`): a looped sample's (`live/football/...`) has none. */
const LIVE_ASSET = /^live\/[0-9a-f]{24}\/from-\d{1,12}\/index\.m3u8$/;
const AT = /^at-(\d{10,15})$/;
const TIMING = /^(\S+)\s+-->\s+(\S+)/;

/** The live recording's previews VTT of a signed live address, beside it with its token; null when none. */
export function liveThumbnailsUrl(streamUrl: string): string | null {
  const signed = parseSignedUrl(streamUrl);
  if (!signed || !LIVE_ASSET.test(signed.path)) return null;
  return besideStream(signed, "thumbnails.vtt");
}

export interface LiveCue {
  wallClockMs: number;
  seconds: number;
  /** The picture's absolute address, with its `#xywh=`. */
  image: string;
}

function seconds(stamp: string): number {
  const parts = stamp.split(":").map(Number);
  return parts.reduce((total, part) => total * 60 + part, 0);
}

/** The cues of a live VTT (identifier `at-<epoch ms>`, timing, picture); others are skipped. */
export function parseLiveCues(vtt: string, base: string): LiveCue[] {
  const cues: LiveCue[] = [];
  const vttUrl = new URL(base, document.baseURI); // the stream's address may be a path
  for (const block of vtt.replace(/\r\n/g, "\n").split(/\n{2,}/)) {
    const [id, timing, text] = block.trim().split("\n");
    const at = AT.exec(id ?? "");
    const times = TIMING.exec(timing ?? "");
    if (!at || !times || !text) continue;
    const length = seconds(times[2]) - seconds(times[1]);
    if (!Number.isFinite(length) || length <= 0) continue;
    cues.push({ wallClockMs: Number(at[1]), seconds: length, image: new URL(text.trim(), vttUrl).href });
  }
  return cues;
}

const liveTracks = new WeakMap<HTMLVideoElement, TextTrack>();

/**
 * The video's track for live cues, which media-chrome reads: made once per video with
 * addTextTrack, not as a `<track>` element (media-chrome resolves cues against a thumbnails
 * element's `src`, which a src-less element makes an invalid base). A VOD stream's `<track>`
 * element (./thumbnails) comes first in the video's tracks, so this one never hides it; `endLive`
 * empties it when the live stream goes.
 */
export function liveTrack(video: HTMLVideoElement): TextTrack {
  let track = liveTracks.get(video);
  if (!track) {
    track = video.addTextTrack("metadata", THUMBNAILS_LABEL);
    liveTracks.set(video, track);
  }
  track.mode = "hidden"; // its cues are read, never shown
  return track;
}

/** The live stream went: its cues go, and the track rests. */
export function endLive(track: TextTrack): void {
  for (const old of Array.from(track.cues ?? [])) track.removeCue(old);
  track.mode = "disabled";
}

/** The track's cues made `cues`, placed on this player's timeline; how many could be placed. */
export function placeCues(track: TextTrack, cues: readonly LiveCue[], anchors: readonly TimeAnchor[]): number {
  for (const old of Array.from(track.cues ?? [])) track.removeCue(old);
  let placed = 0;
  for (const cue of cues) {
    const start = mediaTimeAt(cue.wallClockMs, anchors);
    if (start === null) continue;
    track.addCue(new VTTCue(start, start + cue.seconds, cue.image));
    placed += 1;
  }
  return placed;
}
