import type { ReactNode } from "react";

/** What the player plays. */
export interface PlayerSource {
  /** A master or media playlist: a signed address (`/media/<path>?token=...`) or any other. */
  url: string;
  live: boolean;
  /** Live streams: the moment stream time counts from (the event's kickoff), epoch ms. */
  originMs?: number | null;
  /** Names the video for assistive technology ("Video player: <title>"). */
  title: string;
}

/** A moment on the timeline, in stream seconds (shown as a tick on the seek bar). */
export interface PlayerMarker {
  id: string;
  time: number;
  label: string;
}

export interface PlayerProps {
  /** null: nothing to play yet (the poster stays). */
  source: PlayerSource | null;
  poster?: string | null;
  /** A VAST pre-roll played before the source (once per player). */
  vastUrl?: string | null;
  /**
   * Names the pre-roll's break (e.g. `event:<id>`): it plays once per session of the tab, however
   * often the viewer comes back. Without it, once per player.
   */
  adKey?: string | null;
  /** How long the pre-roll may take: its VAST's answer, then its video playing (the server's settings). */
  adDeadlines?: AdDeadlines;
  /** Stream seconds to begin at when a source (a different stream) is loaded. */
  startAt?: number | null;
  markers?: readonly PlayerMarker[];
  /**
   * Spoiler-free (issue 31 §1): a recording's length is not shown (no seek bar, no duration), as
   * it gives overtime away; the seek buttons and keys still move through it.
   */
  hideDuration?: boolean;
  /**
   * A fresh address for the source playing now (a new token for the same stream), asked for before
   * its token expires and when the server refuses it; null when there is none.
   */
  renewSource?: () => Promise<string | null>;
  /** Stream seconds as playback advances, at most about four times a second. */
  onStreamTimeChange?: (seconds: number) => void;
  /** A VOD source played to its end (a catch-up, then live). */
  onEnded?: () => void;
  /** More controls for the control bar (e.g. a choice of view). */
  extraControls?: ReactNode;
  /**
   * What the page knows of a source that sends nothing for now (a live feed that dropped), shown
   * over the video in place of the loading indicator and the player's own errors: the page can
   * say why, the player cannot. Playback resumes by itself once it is gone.
   */
  notice?: ReactNode;
  /**
   * Reports how each play of the source goes, as views of this event: the quality-of-experience
   * beacons and CMCD on its media requests (./qoe). Without it, nothing is reported.
   */
  qoe?: QoeSettings | null;
}

/** What the QoE report needs: the event played and the server's settings (GET /api/config `qoe`). */
export interface QoeSettings {
  eventId: string;
  /** The share of views that report: 0 for none. */
  sampleRate: number;
  /** How often a batch of beacons goes. */
  batchSeconds: number;
}

export interface PlayerHandle {
  /** Stream seconds where playback is (VOD: media time; live: since the origin); null before playback. */
  streamTime(): number | null;
  /** Live: the live edge in stream seconds; VOD: the duration; null while unknown. */
  streamEnd(): number | null;
  seekTo(streamSeconds: number): void;
  play(): Promise<void>;
  pause(): void;
}

/** Past these the match starts without its pre-roll (milliseconds). */
export interface AdDeadlines {
  vastMs: number;
  startMs: number;
}
