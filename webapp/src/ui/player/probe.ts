/*
 * A read-only view of the hls.js engine playing, for the benchmark and the e2e tests to read live
 * latency from (`Date.now() - playingDate()`). It exists only on a page that asked for it before
 * the player loaded, by setting `window.__touchlineProbe = true` (Playwright's `addInitScript`):
 * viewers never have it, and nothing in the app reads it.
 */

/** What the probe reads from hls.js (a structural subset of its `Hls`). */
export interface ProbedHls {
  /** The program date-time of the frame on screen. */
  readonly playingDate: Date | null;
  /** Seconds from the frame on screen to the live edge. */
  readonly latency: number;
  /** Seconds behind the edge hls.js aims for (its `liveSyncDuration(Count)`). */
  readonly targetLatency: number | null;
}

export interface PlayerProbe {
  /** Epoch ms of the frame on screen (its `EXT-X-PROGRAM-DATE-TIME`); null before that is known. */
  playingDate(): number | null;
  /** Seconds behind the newest segment the playlist lists, as hls.js counts them. */
  latency(): number | null;
  /** Seconds behind that edge hls.js aims for. */
  targetLatency(): number | null;
}

export interface ProbeHost {
  __touchlineProbe?: boolean;
  __touchlinePlayer?: PlayerProbe;
}

/**
 * Installs a probe of `hls` on `host` (the window) when the page asked for one; returns what takes
 * it away again (a no-op when another engine has replaced it since).
 */
export function exposeProbe(host: ProbeHost, hls: ProbedHls): () => void {
  if (host.__touchlineProbe !== true) return () => undefined;
  const probe: PlayerProbe = {
    playingDate: () => {
      const at = hls.playingDate?.getTime();
      return at !== undefined && Number.isFinite(at) ? at : null;
    },
    latency: () => (Number.isFinite(hls.latency) ? hls.latency : null),
    targetLatency: () => hls.targetLatency,
  };
  host.__touchlinePlayer = probe;
  return () => {
    if (host.__touchlinePlayer === probe) delete host.__touchlinePlayer;
  };
}
