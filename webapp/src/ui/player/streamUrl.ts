/*
 * Stream addresses (README "Stream access"): `/media/<stream path>?token=<expires>.<mac>` (or a
 * CDN's flavour of token, `exp=<expires>~acl=…~hmac=…`), the token
 * beside the path, which is the same for every viewer (so one cached copy serves them all). The first
 * request with it sets the token as the HttpOnly `tl_media` cookie of the stream's directory, which
 * every relative request then carries: hls.js's and a native player's alike. The player reads the
 * token's expiry and the path's kickoff (`from-<epoch seconds>`; never trusting either: the server
 * and the edge check every request) to know when to renew it and where a live stream begins.
 */

const MEDIA = "/media/";
const TOKEN = "token";
/** The two token flavours (server/media/delivery/edge_tokens.py): nginx's `secure_link`, and the
 * EdgeAuth 2.0 shape a CDN checks (`TOUCHLINE_STREAM_TOKEN_FLAVOUR=akamai`). */
const TOKEN_SHAPES = [
  /^(\d{1,12})\.[A-Za-z0-9_-]{22}$/,
  /^exp=(\d{1,12})~acl=\/media\/[A-Za-z0-9._/-]+\*~hmac=[0-9a-f]{64}$/,
];
const KICKOFF = /\/from-(\d{1,12})\//;
const ABSOLUTE = /^(?:[a-z][a-z0-9+.-]*:)?\/\//i;

export interface SignedStream {
  /** The address without its token (origin, path and any other query parameters). */
  base: string;
  token: string;
  /** The stream's path below `/media/`, without the query: `vod/<asset>/clip-0-4000/index.m3u8`. */
  path: string;
  /** The stream's directory as an address (origin and path), ending in `/`: what its token opens. */
  directory: string;
}

export interface StreamClaims {
  /** Expiry, epoch seconds. */
  exp: number | null;
  /** Live streams: where the stream begins (the event's kickoff), epoch seconds. */
  start: number | null;
}

export function parseSignedUrl(url: string): SignedStream | null {
  let parsed: URL;
  try {
    parsed = new URL(url, "http://relative.invalid");
  } catch {
    return null;
  }
  const token = parsed.searchParams.get(TOKEN);
  if (!token || !parsed.pathname.startsWith(MEDIA)) return null;
  parsed.searchParams.delete(TOKEN);
  const origin = ABSOLUTE.test(url) ? parsed.origin : "";
  const path = parsed.pathname;
  return {
    base: `${origin}${path}${parsed.search}`,
    token,
    path: path.slice(MEDIA.length),
    directory: `${origin}${path.slice(0, path.lastIndexOf("/") + 1)}`,
  };
}

/** Whether two addresses play the same stream (only their tokens may differ). */
export function sameStream(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const left = parseSignedUrl(a);
  const right = parseSignedUrl(b);
  if (!left || !right) return a === b;
  return left.base === right.base;
}

/** A file beside the stream's playlist (`thumbnails.vtt`), with the stream's token. */
export function besideStream(signed: SignedStream, name: string): string {
  return `${signed.directory}${name}?${TOKEN}=${encodeURIComponent(signed.token)}`;
}

/** The expiry of a stream token (unverified: for scheduling only); null when it has no such shape. */
export function tokenClaims(token: string): Pick<StreamClaims, "exp"> | null {
  const match = TOKEN_SHAPES.map((shape) => shape.exec(token)).find(Boolean);
  return match ? { exp: Number(match[1]) } : null;
}

/** Whether `url`'s token outlives `than`'s (an address without a token is never newer). */
export function isNewer(url: string, than: string): boolean {
  const next = streamClaims(url)?.exp;
  const current = streamClaims(than)?.exp;
  return next != null && (current == null || next > current);
}

/** The claims of a signed address; null for an unsigned address or an unreadable token. */
export function streamClaims(url: string | null | undefined): StreamClaims | null {
  const signed = url ? parseSignedUrl(url) : null;
  const claims = signed ? tokenClaims(signed.token) : null;
  if (!signed || !claims) return null;
  const kickoff = KICKOFF.exec(`/${signed.path}`);
  return { exp: claims.exp, start: kickoff ? Number(kickoff[1]) : null };
}

/**
 * Renews the cookie of `url`'s stream with its token: a HEAD of the address, whose answer sets it.
 * What the player asks for afterwards (relative addresses, which carry no token) goes with the new
 * one, so a renewal reloads nothing. Resolves whether or not it worked (a refusal shows later).
 */
export function renewStreamCookie(url: string): Promise<void> {
  return fetch(url, { method: "HEAD", credentials: "same-origin", cache: "no-store" }).then(
    () => undefined,
    () => undefined,
  );
}
