/*
 * Rewrites of playlist text before hls.js parses it.
 *
 * hls.js keeps per-discontinuity state in arrays indexed by the discontinuity sequence number and
 * copies them on every segment (`initPTS.slice(0)` in its stream controller). A live playlist whose
 * EXT-X-DISCONTINUITY-SEQUENCE is in the tens of millions (the server's looped samples count their
 * loops since 1970) makes each of those copies walk tens of millions of slots: over a second of
 * main thread per segment. Subtracting one constant from every playlist of a stream keeps the
 * numbering consistent (all that RFC 8216 asks of it) and the arrays short.
 */

const SEQUENCE = /^#EXT-X-DISCONTINUITY-SEQUENCE:(\d+)\s*$/m;

/** The playlist's EXT-X-DISCONTINUITY-SEQUENCE, or null when it has none. */
export function discontinuitySequence(playlist: string): number | null {
  const match = SEQUENCE.exec(playlist);
  return match ? Number(match[1]) : null;
}

/** `playlist` with `base` subtracted from its discontinuity sequence (never below 0). */
export function rebaseDiscontinuities(playlist: string, base: number): string {
  if (!base) return playlist;
  return playlist.replace(SEQUENCE, (_line, value: string) => {
    const rebased = Math.max(0, Number(value) - base);
    return `#EXT-X-DISCONTINUITY-SEQUENCE:${rebased}`;
  });
}

/**
 * Rebases every playlist of one stream by the sequence of the first one that had one: a stream's
 * renditions share its timeline, and its window only moves forward.
 */
export function discontinuityRebaser(): (playlist: string) => string {
  let base: number | null = null;
  return (playlist) => {
    const sequence = discontinuitySequence(playlist);
    if (sequence === null) return playlist;
    base ??= sequence;
    return rebaseDiscontinuities(playlist, base);
  };
}
