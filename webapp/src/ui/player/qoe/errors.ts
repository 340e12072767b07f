/*
 * The player's errors as the QoE beacons tell them: `business` for a refusal by design (the
 * stream's token refused: no entitlement, another region, a device limit; a stream that has not
 * started), else technical (hls.js's network and media errors, a browser without HLS); `fatal` when
 * the view ends with it. Errors the player gets over by itself are not fatal: a stream not started
 * yet (it asks again when the server says), playback that stopped moving (it may resume), a media
 * error hls.js recovered in place.
 */
import type { ViewError } from "./view";

/** What the player says of an error (its PlayerError, ./engine's EngineError). */
export interface PlayerErrorLike {
  kind: string;
  /** hls.js's name for it (`fragLoadError`), when it said. */
  detail?: string;
}

const BUSINESS = new Set(["forbidden", "not-started"]);
const NOT_FATAL = new Set(["not-started", "stalled"]);
/** The contract's `code`: at most 60 of these characters. */
const CODE_CHARACTERS = /[^A-Za-z0-9_.:-]/g;

function codeOf(kind: string, detail: string | undefined): string {
  return (detail ? `${kind}:${detail}` : kind).replace(CODE_CHARACTERS, "_").slice(0, 60);
}

export function viewErrorOf(error: PlayerErrorLike): ViewError {
  return {
    code: codeOf(error.kind, error.detail),
    fatal: !NOT_FATAL.has(error.kind),
    business: BUSINESS.has(error.kind),
  };
}

/** A fatal media error hls.js recovered from in place (./engine): playback goes on. */
export function recoveredErrorOf(detail: string): ViewError {
  return { code: codeOf("media", detail), fatal: false, business: false };
}
