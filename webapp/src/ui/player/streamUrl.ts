/*
 * Signed stream addresses (README "Stream access"): `/media/s/<token>/<stream path>`, the token an
 * HS256 JWT in the path, so the playlists' relative URIs inherit it. The player reads the token's
 * claims (never trusting them: the server checks every request) to know when it expires, whether a
 * bearer must go with each request, and where a live stream begins.
 */

/** The marker of a signed address: what follows it is `<token>/<stream path>`. */
const SIGNED = "/media/s/";

export interface SignedStream {
  /** Everything up to and including `/media/s/` (an origin may precede it). */
  prefix: string;
  token: string;
  /** The stream's path after the token (`vod/football/index.m3u8`), the query included. */
  path: string;
}

export interface StreamClaims {
  /** Expiry, epoch seconds. */
  exp: number | null;
  /** Live streams: where the stream begins (the event's kickoff), epoch seconds. */
  start: number | null;
  /** Present when the token is bound to a viewer: every request then needs their bearer. */
  sub: string | null;
}

export function parseSignedUrl(url: string): SignedStream | null {
  const at = url.indexOf(SIGNED);
  if (at < 0) return null;
  const rest = url.slice(at + SIGNED.length);
  const slash = rest.indexOf("/");
  if (slash <= 0) return null;
  return { prefix: url.slice(0, at + SIGNED.length), token: rest.slice(0, slash), path: rest.slice(slash + 1) };
}

/** Whether two addresses play the same stream (only their tokens may differ). */
export function sameStream(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const left = parseSignedUrl(a);
  const right = parseSignedUrl(b);
  if (!left || !right) return a === b;
  return left.prefix === right.prefix && left.path === right.path;
}

/**
 * `url` (any address under a signed stream: a variant playlist, a segment) with `token` in place of
 * its own; addresses that are not signed stay as they are.
 */
export function withToken(url: string, token: string | null): string {
  if (!token) return url;
  const signed = parseSignedUrl(url);
  if (!signed || signed.token === token) return url;
  return `${signed.prefix}${token}/${signed.path}`;
}

function decodeBase64Url(part: string): string {
  const base64 = part.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

const numberOrNull = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** The claims of a stream token (unverified: for scheduling only); null when it is no JWT. */
export function tokenClaims(token: string): StreamClaims | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  try {
    const claims: unknown = JSON.parse(decodeBase64Url(parts[1]));
    if (!claims || typeof claims !== "object") return null;
    const record = claims as Record<string, unknown>;
    return {
      exp: numberOrNull(record.exp),
      start: numberOrNull(record.start),
      sub: typeof record.sub === "string" ? record.sub : null,
    };
  } catch {
    return null;
  }
}

/** The claims of a signed address's token; null for an unsigned address or an unreadable token. */
export function streamClaims(url: string | null | undefined): StreamClaims | null {
  const signed = url ? parseSignedUrl(url) : null;
  return signed ? tokenClaims(signed.token) : null;
}
