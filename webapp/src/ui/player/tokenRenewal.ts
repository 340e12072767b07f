/*
 * Keeping a playing stream's token current: a newer signed address of the same stream, asked for
 * before the token expires (./schedule) and at once when the server refuses it, then taken into
 * use without reloading anything (the engine swaps the token's cookie). Every player that plays a
 * signed stream uses this: the full player (./PlayerView) and the lighter ones built on the engine.
 */
import { renewalDelay, retryDelay } from "./schedule";
import { isNewer, parseSignedUrl, sameStream, streamClaims } from "./streamUrl";

/** Consecutive token renewals are at least this far apart (a skewed clock must not make a loop). */
export const MIN_RENEWAL_GAP_MS = 5_000;

/** What the renewal reads from its player and hands it. */
export interface TokenRenewalHost {
  /** The address playing now (its token may be newer than the page's); null before anything plays. */
  playing(): string | null;
  /** Fetches a fresh address for the stream playing (e.g. a new event answer); undefined: none can be had. */
  renewSource(): (() => Promise<string | null>) | undefined;
  /** Takes a newer address of the same stream into use. */
  adopt(url: string): void;
}

export interface TokenRenewal {
  /**
   * Whether `url` plays the stream playing now (only its token may differ): its token is taken into
   * use when it outlives the one playing. False for another stream, which has to be loaded.
   */
  offer(url: string): boolean;
  /**
   * Asks for a newer address now (one request at a time: a second call joins the first). Rejects when
   * none came (a cached answer, the stream gone); resolves when another stream started meanwhile.
   */
  renewNow(): Promise<void>;
  /**
   * Renews `url`'s token before it expires, and after a failure again (doubling) while it lasts.
   * Returns what stops it; an address without a readable token needs nothing.
   */
  keepFresh(url: string): () => void;
}

export function createTokenRenewal(host: TokenRenewalHost): TokenRenewal {
  let pending: Promise<void> | null = null;
  let lastRenewal = 0;

  const renewNow = (): Promise<void> => {
    if (pending) return pending;
    const renew = host.renewSource();
    const playing = host.playing();
    if (!renew || !playing) return Promise.resolve();
    lastRenewal = Date.now();
    const attempt = renew()
      .then((url) => {
        if (host.playing() !== playing) return; // another stream meanwhile
        // Nothing newer (a cached answer, the stream gone): a failure, tried again later.
        if (!url || !sameStream(url, playing) || !isNewer(url, playing)) throw new Error("no newer stream address");
        host.adopt(url);
      })
      .finally(() => {
        pending = null;
      });
    pending = attempt;
    return attempt;
  };

  const keepFresh = (url: string): (() => void) => {
    const exp = streamClaims(url)?.exp;
    if (!exp || !parseSignedUrl(url) || !host.renewSource()) return () => undefined;
    const receivedAt = Date.now();
    let failures = 0;
    let timer: ReturnType<typeof setTimeout>;
    const schedule = (delay: number) => {
      timer = setTimeout(run, Math.max(delay, lastRenewal + MIN_RENEWAL_GAP_MS - Date.now()));
    };
    const run = () => {
      renewNow().catch(() => {
        const wait = retryDelay(++failures, exp * 1000, Date.now());
        if (wait !== null) schedule(wait);
      });
    };
    schedule(renewalDelay(exp * 1000, receivedAt, receivedAt));
    return () => clearTimeout(timer);
  };

  const offer = (url: string): boolean => {
    const playing = host.playing();
    if (!playing || !sameStream(playing, url)) return false;
    if (url !== playing && isNewer(url, playing)) host.adopt(url);
    return true;
  };

  return { offer, renewNow, keepFresh };
}
