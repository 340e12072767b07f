/*
 * The bandwidth multiview may use: the tiles on screen together about one full-screen stream
 * (its top rendition, with half of it again to spare), shared evenly. Each tile is capped to its
 * size by hls.js already; this lowers a tile's cap further when its share of the budget is less
 * than what its size would allow. Pure: the tile's player reads it as its level cap.
 */

/** The tiles together may use the top rendition's bitrate times this. */
export const BUDGET_OF_TOP = 1.5;

/**
 * The highest rendition (an index into `bitrates`, lowest first) a tile may play when `tiles`
 * tiles share the budget: the best one within its share, never less than the lowest (a picture
 * is better than none). A tile alone on screen may play anything its size allows.
 */
export function levelCapFor(bitrates: readonly number[], tiles: number): number {
  if (!bitrates.length) return -1;
  if (tiles <= 1) return bitrates.length - 1;
  const share = (Math.max(...bitrates) * BUDGET_OF_TOP) / tiles;
  let cap = 0;
  bitrates.forEach((bitrate, index) => {
    if (bitrate <= share) cap = index;
  });
  return cap;
}
