import { api, unwrap } from "@/api/client";
import { renewalDelay, retryDelay } from "./schedule";

/**
 * Native HLS players cannot send the bearer header: POST /user/media_cookie puts the viewer's access
 * token in an HttpOnly cookie on /media/s/ (README "Stream access"). Resolves to when the cookie
 * expires (epoch ms), with the access token it holds.
 */
export async function setMediaCookie(): Promise<number> {
  const answer = await unwrap(api.POST("/user/media_cookie"));
  const expires = Date.parse(answer.content.expiresAt);
  return Number.isNaN(expires) ? Date.now() + 60_000 : expires;
}

export interface MediaCookieHold {
  /** Resolves once the cookie is set for the held token (or setting it failed: a 403 shows later). */
  ready: Promise<void>;
  release(): void;
}

/*
 * What the browser fetches by itself for a stream bound to a viewer goes without the bearer: the
 * native engine's playlists and segments, the seek previews' track and sprite sheets. While anything
 * holds the cookie it is kept set: once per stream token (a new token may be of another sign-in),
 * then again before it expires (it lives as long as the access token it holds). The holders share
 * it, so a token costs one request however many ask.
 */
let holders = 0;
let heldToken: string | null = null;
let heldReady: Promise<void> = Promise.resolve();
let generation = 0;
let failures = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

function renew(): Promise<void> {
  const mine = ++generation;
  clearTimeout(timer);
  const askedAt = Date.now();
  return setMediaCookie().then(
    (expires) => {
      failures = 0;
      if (mine === generation) timer = setTimeout(() => void renew(), renewalDelay(expires, askedAt, Date.now()));
    },
    () => {
      if (mine !== generation) return;
      const wait = retryDelay(++failures, askedAt + 60_000, Date.now());
      if (wait !== null) timer = setTimeout(() => void renew(), wait);
    },
  );
}

/** Keeps the media cookie set for the viewer-bound stream token `token` until released. */
export function holdMediaCookie(token: string): MediaCookieHold {
  holders += 1;
  if (token !== heldToken) {
    heldToken = token;
    heldReady = renew();
  }
  let released = false;
  return {
    ready: heldReady,
    release() {
      if (released) return;
      released = true;
      holders -= 1;
      if (holders > 0) return;
      // Nobody needs it now: no more renewals (the cookie lapses with its access token).
      generation += 1;
      clearTimeout(timer);
      heldToken = null;
      heldReady = Promise.resolve();
    },
  };
}
