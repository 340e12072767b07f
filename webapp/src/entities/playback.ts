import type { components } from "@/api/schema.gen";
import { mapEvent, type CatalogEvent, type EventMapOptions } from "./event";

type ApiPlaybackPosition = components["schemas"]["PlaybackPosition"];
type ApiContinueWatchingEntry = components["schemas"]["ContinueWatchingEntry"];

/** Under this many seconds in, a video counts as not started (the server's rule too). */
export const NOT_STARTED_SECONDS = 10;
/** From this share of its length on, a video counts as finished (the server's rule too). */
export const FINISHED_SHARE = 0.95;

/** Where the viewer stopped in an archived event or clip, in seconds of its stream. */
export interface PlaybackPosition {
  videoId: string;
  position: number;
  duration: number;
  updatedAt: Date;
}

/** A "Continue watching" entry: the video, where the viewer stopped and how much is watched (0 to 1). */
export interface ContinueWatchingItem {
  event: CatalogEvent;
  position: PlaybackPosition;
  progress: number;
}

/** Started (10 s in) and not finished (under 95 %): worth resuming. */
export function isResumable(position: number, duration: number): boolean {
  return position >= NOT_STARTED_SECONDS && position < FINISHED_SHARE * duration;
}

export function mapPlaybackPosition(api: ApiPlaybackPosition): PlaybackPosition {
  return { videoId: api.video_id, position: api.position, duration: api.duration, updatedAt: new Date(api.updated) };
}

export function mapContinueWatchingEntry(
  entry: ApiContinueWatchingEntry,
  options?: EventMapOptions,
): ContinueWatchingItem {
  const position = mapPlaybackPosition(entry);
  const progress = position.duration > 0 ? Math.min(1, Math.max(0, position.position / position.duration)) : 0;
  return { event: mapEvent(entry.video, options), position, progress };
}
