// The engine (hls.js) and the controls (media-chrome) are most of the player's weight: a chunk of
// their own, fetched when a page that plays starts, never with the first load. This module is
// tiny on purpose: the router imports it to start that fetch beside the page's own (a type import
// adds nothing to it).
import type PlayerView from "./PlayerView";

interface PlayerViewModule {
  default: typeof PlayerView;
}

let loaded: PlayerViewModule | null = null;

export function loadPlayerView(): Promise<PlayerViewModule> {
  return import("./PlayerView").then((module) => (loaded = module));
}

/**
 * The player's code if it has arrived: rendering it directly spares a suspension, whose fallback
 * React keeps on screen for at least 300 ms, on the way to the first frame.
 */
export function loadedPlayerView(): PlayerViewModule | null {
  return loaded;
}

/** Starts fetching the player's code now (as soon as a page that will play starts). */
export function preloadPlayer(): void {
  void loadPlayerView().catch(() => undefined);
}
