import { useSyncExternalStore } from "react";

/**
 * Where playback is, in whole stream seconds, for the few controls that show it (share "from
 * 12:34"). The player reports several times a second; only a new second wakes the subscribers,
 * and the page itself never re-renders for it.
 */
export interface StreamClock {
  get(): number | null;
  set(seconds: number): void;
  subscribe(listener: () => void): () => void;
}

export function createStreamClock(): StreamClock {
  let current: number | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    set(seconds) {
      if (!Number.isFinite(seconds)) return;
      const whole = Math.max(0, Math.floor(seconds));
      if (whole === current) return;
      current = whole;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useStreamSeconds(clock: StreamClock): number | null {
  return useSyncExternalStore(clock.subscribe, clock.get, clock.get);
}

const still = () => () => undefined;
const unknown = () => null;

/** useStreamSeconds while `watching`; null, and no re-render per second, otherwise. */
export function usePlayedSeconds(clock: StreamClock, watching: boolean): number | null {
  return useSyncExternalStore(watching ? clock.subscribe : still, watching ? clock.get : unknown, unknown);
}
