import { createContext, useContext } from "react";
import type { UserClip } from "@/entities/clip";
import type { StreamClock } from "./streamClock";

/** A catch-up to play: its signed playlist, and a fresh address for it before its token expires. */
export interface Reel {
  url: string;
  renew: () => Promise<string | null>;
}

/** What the panels around the player may do with it (the page wires it to the player's handle). */
export interface PlayerControls {
  /** Where playback is, in stream seconds; null before playback has started. */
  currentTime(): number | null;
  /** Goes to a moment of the event (back from a clip first), bringing the player into view. */
  seek(seconds: number): void;
  /** Plays one of the viewer's clips in the same player. */
  playClip(clip: UserClip): void;
  /** Back from a clip to the event's own stream. */
  backToEvent(): void;
  /** The clip playing now, if any. */
  playingClipId: string | null;
  /** Plays the catch-up (a live event's key plays so far), then the live edge by itself. */
  playReel(reel: Reel): void;
  /** Seconds into the catch-up while it plays, else null. */
  reelTime(): number | null;
  /** Goes to `seconds` into the catch-up playing now. */
  seekReel(seconds: number): void;
  /** Whether the catch-up plays now. */
  reelPlaying: boolean;
  clock: StreamClock;
}

export const PlayerControlsContext = createContext<PlayerControls | null>(null);

export function usePlayerControls(): PlayerControls {
  const controls = useContext(PlayerControlsContext);
  if (!controls) throw new Error("usePlayerControls needs the event page's PlayerControlsContext");
  return controls;
}
