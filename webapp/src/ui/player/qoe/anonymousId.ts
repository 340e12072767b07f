/*
 * The browser's anonymous id, which the server attaches signed-out views to (QoeBatch
 * `anonymousId`): the analytics one when the browser has it, so one browser is one viewer in both;
 * else one of the QoE beacons' own, kept in local storage. Read from storage rather than imported
 * from the analytics collector, which loads apart (and only when analytics is on).
 */

/** src/lib/analytics/collector.ts's ANONYMOUS_ID_KEY (tests/ui/player/qoe keeps them the same). */
export const ANALYTICS_ID_KEY = "touchline-analytics-id";
export const QOE_ID_KEY = "touchline-qoe-id";
const VALID = /^[A-Za-z0-9_-]{8,64}$/;

type Store = Pick<Storage, "getItem" | "setItem">;

/** A new random id (24 hexadecimal characters). */
export function randomId(): string {
  const bytes = new Uint8Array(12);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function read(storage: Store | null, key: string): string | null {
  try {
    const value = storage?.getItem(key) ?? null;
    return value && VALID.test(value) ? value : null;
  } catch {
    return null;
  }
}

/** What reads the id when a batch goes: without storage, one id for the page's lifetime. */
export function anonymousIds(storage: Store | null = localStorageOrNull(), newId = randomId): () => string {
  let own: string | null = null;
  return () => {
    const analytics = read(storage, ANALYTICS_ID_KEY);
    if (analytics) return analytics;
    own ??= read(storage, QOE_ID_KEY);
    if (own) return own;
    own = newId();
    try {
      storage?.setItem(QOE_ID_KEY, own);
    } catch {
      // Storage full or disabled: the id lasts as long as the page.
    }
    return own;
  };
}

function localStorageOrNull(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
