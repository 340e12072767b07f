import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { accessOf, type CatalogEvent } from "@/entities/event";
import { usePlaybackPositionQuery } from "../api/getPlaybackPosition";
import { playbackKey, savePlaybackPosition, type PlaybackReport } from "@/entities/savePlaybackPosition";
import type { EventPlayerHandle } from "./EventPlayer";
import type { StreamClock } from "./streamClock";

/** While playing, where the viewer is goes to the server at most this often (and on pause and leave). */
export const REPORT_EVERY_MS = 10_000;
/** Reports closer than this to the last one are not sent (a paused video reports once). */
const MIN_MOVE_S = 1;

export interface PlaybackPositionOptions {
  event: CatalogEvent;
  player: RefObject<EventPlayerHandle | null>;
  /** The page's stream clock: the player's time as it plays. */
  clock: StreamClock;
  /** The element around the player: its media's pause and end are reported. */
  root: RefObject<HTMLElement | null>;
  signedIn: boolean;
  /** A share link's moment (?t=): playback starts there, not at the saved position. */
  startAt: number | null;
  /** Something else plays in the player (a viewer's clip): nothing is reported meanwhile. */
  suspended: boolean;
}

export interface PlaybackResume {
  /** The saved position playback was moved to, until the viewer starts over; else null. */
  resumedAt: number | null;
  /** Back to the beginning of the video. */
  startOver(): void;
  /** Hides the resume note, playback stays where it is. */
  dismiss(): void;
}

/** Only archived events and clips keep a position; live events, channels and upcoming ones never. */
export function keepsPosition(event: CatalogEvent): boolean {
  return !event.isLive && !event.isChannel && (event.status === "archived" || event.status === "vod");
}

/**
 * The event page's playback position for a signed-in viewer: resumes an archived event or clip
 * where the viewer stopped last time (once playback begins, unless a share link names a moment),
 * then reports the position every REPORT_EVERY_MS while it moves, when the video pauses or ends,
 * and when the page is hidden or left (as a keepalive request, which outlives the page).
 */
export function usePlaybackPosition({
  event,
  player,
  clock,
  root,
  signedIn,
  startAt,
  suspended,
}: PlaybackPositionOptions): PlaybackResume {
  const queryClient = useQueryClient();
  const tracked = signedIn && keepsPosition(event) && accessOf(event).kind === "available" && !!event.streamUrl;
  const saved = usePlaybackPositionQuery(event.id, tracked && startAt === null);
  const [resumedAt, setResumedAt] = useState<number | null>(null);

  // Reports start once the resume is settled: an early report from 0 s would overwrite it.
  const settled = tracked && (startAt !== null || saved.isSuccess || saved.isError);
  const target = startAt === null && saved.data ? saved.data.position : null;

  const latest = useRef({ suspended, videoId: event.id });
  useEffect(() => {
    latest.current = { suspended, videoId: event.id };
  });

  // --- resume -----------------------------------------------------------------------------------

  const applied = useRef(false);
  useEffect(() => {
    if (!settled || applied.current) return;
    if (target === null) {
      applied.current = true;
      return;
    }
    const apply = () => {
      if (applied.current || clock.get() === null || latest.current.suspended || !player.current) return;
      applied.current = true;
      player.current.seekTo(target);
      setResumedAt(target);
    };
    apply(); // playback may have begun before the answer came
    return clock.subscribe(apply);
  }, [settled, target, clock, player]);

  // --- reports ----------------------------------------------------------------------------------

  const known = useRef<{ time: number | null; end: number | null }>({ time: null, end: null });
  const lastSent = useRef<number | null>(null);

  const report = useCallback(
    (keepalive: boolean) => {
      if (!applied.current || latest.current.suspended) return;
      const handle = player.current;
      const time = handle?.streamTime() ?? known.current.time;
      const end = handle?.streamEnd() ?? known.current.end;
      if (time === null || end === null || !Number.isFinite(end) || end <= 0) return;
      const position = Math.min(Math.max(0, time), end);
      if (lastSent.current !== null && Math.abs(position - lastSent.current) < MIN_MOVE_S) return;
      lastSent.current = position;
      const sent: PlaybackReport = { videoId: latest.current.videoId, position, duration: end };
      savePlaybackPosition(sent, { keepalive }).then(
        () => queryClient.invalidateQueries({ queryKey: [...playbackKey, "continue"] }),
        (error: unknown) => {
          lastSent.current = null; // the next report tries again
          console.warn("Saving the playback position failed", error);
        },
      );
    },
    [player, queryClient],
  );

  useEffect(() => {
    if (!settled) return;
    // The last known time and length, for the report made as the page goes (the player is gone by then).
    const remember = () => {
      if (latest.current.suspended) return;
      known.current = {
        time: clock.get(),
        end: player.current?.streamEnd() ?? known.current.end,
      };
    };
    const unsubscribe = clock.subscribe(remember);
    const timer = setInterval(() => report(false), REPORT_EVERY_MS);
    const onStop = () => report(false);
    const onHide = () => {
      if (document.visibilityState === "hidden") report(true);
    };
    const onPageHide = () => report(true);
    const element = root.current;
    // Media events do not bubble: listened to on their way down instead.
    element?.addEventListener("pause", onStop, true);
    element?.addEventListener("ended", onStop, true);
    document.addEventListener("visibilitychange", onHide);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      unsubscribe();
      clearInterval(timer);
      element?.removeEventListener("pause", onStop, true);
      element?.removeEventListener("ended", onStop, true);
      document.removeEventListener("visibilitychange", onHide);
      window.removeEventListener("pagehide", onPageHide);
      report(true); // leaving the page (or the video)
    };
  }, [settled, clock, player, root, report]);

  const startOver = useCallback(() => {
    player.current?.seekTo(0);
    void player.current?.play().catch(() => undefined);
    setResumedAt(null);
  }, [player]);
  const dismiss = useCallback(() => setResumedAt(null), []);

  return { resumedAt, startOver, dismiss };
}
