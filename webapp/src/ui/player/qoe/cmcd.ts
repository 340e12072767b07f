/*
 * Common Media Client Data (CTA-5004) in query mode: each media request of a view carries
 * `CMCD=<payload>` after its own query, which stays as it was (the stream token included). Query
 * mode rather than headers: a header would make every segment request a CORS preflight on a CDN,
 * and caches keyed on the path ignore the query. hls.js's light build has no CMCD controller, and
 * the full build costs ~70 KB more: the player adds it itself, as hls.js's controller would.
 */
import type { MediaRequest } from "./mediaRequests";

/** The keys this player sends, by kind of value (CTA-5004 §3.3). */
export interface CmcdData {
  /** Integers (rounded). */
  bl?: number;
  br?: number;
  d?: number;
  mtp?: number;
  /** A decimal. */
  pr?: number;
  /** Strings (quoted). */
  cid?: string;
  sid?: string;
  /** Tokens (bare). */
  ot?: string;
  sf?: string;
  st?: string;
  /** Booleans: the key alone when true, left out when false. */
  su?: boolean;
}

type Key = keyof CmcdData;
const STRINGS: ReadonlySet<Key> = new Set(["cid", "sid"]);
const PARAMETER = "CMCD";

function pair(key: Key, value: CmcdData[Key]): string | null {
  if (value === undefined || value === false || value === "") return null;
  if (value === true) return key;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    return `${key}=${key === "pr" ? Number(value.toFixed(3)) : Math.round(value)}`;
  }
  return STRINGS.has(key) ? `${key}="${value.replace(/["\\]/g, "\\$&")}"` : `${key}=${value}`;
}

/** The payload: keys in alphabetical order (CTA-5004 asks for it: the payloads compress better). */
export function encodeCmcd(data: CmcdData): string {
  return (Object.keys(data) as Key[])
    .sort()
    .map((key) => pair(key, data[key]))
    .filter((entry): entry is string => entry !== null)
    .join(",");
}

/** CTA-5004 rounds these to the nearest 100 (ms, kbps): finer figures say nothing more and vary. */
const hundreds = (value: number | null): number | undefined =>
  value === null ? undefined : Math.round(value / 100) * 100;

export interface CmcdSession {
  /** `sid`: the view's id (the QoE beacons' `view`). */
  sessionId: string;
  /** `cid`: the event played. */
  contentId: string;
}

/** The CMCD of one request of `session`. */
export function cmcdOf(request: MediaRequest, session: CmcdSession): CmcdData {
  return {
    bl: hundreds(request.bufferMs),
    br: request.bitrateKbps ?? undefined,
    cid: session.contentId,
    d: request.durationMs ?? undefined,
    mtp: hundreds(request.throughputKbps),
    ot: request.object ?? undefined,
    // 1 is what a server assumes without the key (CTA-5004: send it only when it differs).
    pr: request.rate === 1 ? undefined : request.rate,
    sf: "h",
    sid: session.sessionId,
    st: request.live ? "l" : "v",
    su: request.urgent,
  };
}

/**
 * `url` with `CMCD=<payload>` as its last query parameter: the rest of its query stays as it was,
 * byte for byte, and a CMCD parameter it already had (a request sent again) is replaced.
 */
export function withCmcd(url: string, payload: string): string {
  const hashAt = url.indexOf("#");
  const fragment = hashAt < 0 ? "" : url.slice(hashAt);
  const address = hashAt < 0 ? url : url.slice(0, hashAt);
  const queryAt = address.indexOf("?");
  const path = queryAt < 0 ? address : address.slice(0, queryAt);
  const query = queryAt < 0 ? [] : address.slice(queryAt + 1).split("&");
  const kept = query.filter((part) => part !== "" && part.split("=")[0] !== PARAMETER);
  if (payload) kept.push(`${PARAMETER}=${encodeURIComponent(payload)}`);
  return kept.length ? `${path}?${kept.join("&")}${fragment}` : `${path}${fragment}`;
}
