/*
 * When to renew what expires during playback: the stream token (a new signed address, fetched
 * before the old one stops opening segments) and, for native HLS players, the media cookie that
 * stands in for the bearer header. Pure: the caller passes the clock.
 */

/** Renew at the latest this long before expiry... */
export const MAX_RENEWAL_MARGIN_MS = 60_000;
/** ...and at least this long before it (time for the request and for clock skew). */
export const MIN_RENEWAL_MARGIN_MS = 3_000;
/** The share of a credential's remaining life kept in reserve for renewing it. */
export const RENEWAL_SHARE = 0.2;
/** A failed renewal is tried again after this long (doubling), while the old one still works. */
export const RENEWAL_RETRY_MS = 2_000;

/**
 * Milliseconds from `now` until a credential expiring at `expiresAtMs` (received at `receivedAtMs`)
 * should be renewed: a fifth of its life before expiry, between 3 s and 60 s before it, and never
 * before half its life has gone (a renewal loop must not spin on a short-lived credential); 0 when
 * that moment has passed.
 */
export function renewalDelay(expiresAtMs: number, receivedAtMs: number, now: number): number {
  const lifetime = Math.max(0, expiresAtMs - receivedAtMs);
  const margin = Math.min(MAX_RENEWAL_MARGIN_MS, Math.max(MIN_RENEWAL_MARGIN_MS, lifetime * RENEWAL_SHARE));
  const renewAt = Math.max(expiresAtMs - margin, receivedAtMs + lifetime / 2);
  return Math.max(0, renewAt - now);
}

/**
 * After the `attempt`-th failed renewal (1 = the first), how long to wait before the next: doubling
 * from 2 s, never past the expiry (one last try just before it); null once it has expired, when only
 * an error and a retry can help.
 */
export function retryDelay(attempt: number, expiresAtMs: number, now: number): number | null {
  const left = expiresAtMs - now;
  if (left <= 0) return null;
  const wait = RENEWAL_RETRY_MS * 2 ** Math.max(0, attempt - 1);
  return Math.min(wait, Math.max(0, left - 1_000));
}
