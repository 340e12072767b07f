import type { KeyPlay } from "./catchUpQuery";

/**
 * The key plays a viewer may see in the list. Spoiler-free mode shows none ahead of the playhead:
 * of the catch-up while it plays (`reelTime`, seconds into it), else of the event (`played`,
 * stream seconds; null before playback).
 */
export function visibleKeyPlays(
  plays: readonly KeyPlay[],
  { scoresHidden, played, reelTime }: { scoresHidden: boolean; played: number | null; reelTime: number | null },
): KeyPlay[] {
  if (!scoresHidden) return [...plays];
  if (reelTime !== null) return plays.filter((play) => play.reelOffset <= reelTime);
  return played === null ? [] : plays.filter((play) => play.start <= played);
}

/** The key play the catch-up is showing at `reelTime`, or null before the first. */
export function playingKeyPlay(plays: readonly KeyPlay[], reelTime: number | null): KeyPlay | null {
  if (reelTime === null) return null;
  let current: KeyPlay | null = null;
  for (const play of plays) if (play.reelOffset <= reelTime + 0.25) current = play;
  return current;
}
