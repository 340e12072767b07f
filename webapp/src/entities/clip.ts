import type { ApiEvent } from "./event";
import { NO_TITLE } from "./event";

/** A clip the viewer cut from an event (media type user_clip or user_highlight). */
export interface UserClip {
  id: string;
  /** The `_id` of the event it was cut from. */
  eventId: string;
  title: string;
  mediaType: "user_clip" | "user_highlight";
  /** Where it starts and ends in the event's stream, in seconds. */
  startSeconds: number;
  endSeconds: number;
  durationSeconds: number;
  /** Its own VOD playlist, signed for its owner. */
  streamUrl: string | null;
  posterUrl: string | null;
  addedAt: Date | null;
}

/** At most 10 minutes (the server answers 400 invalid_time_range beyond). */
export const MAX_CLIP_SECONDS = 600;

function parseDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The one API → UI mapping of a viewer's clips; times arrive in milliseconds. */
export function mapUserClip(api: ApiEvent): UserClip {
  const startSeconds = (api.startTime ?? 0) / 1000;
  const endSeconds = (api.endTime ?? api.startTime ?? 0) / 1000;
  return {
    id: api._id,
    eventId: api.event_id,
    title: api.title || NO_TITLE,
    mediaType: api.media_type === "user_highlight" ? "user_highlight" : "user_clip",
    startSeconds,
    endSeconds,
    durationSeconds: api.duration ?? Math.max(0, endSeconds - startSeconds),
    streamUrl: api.content.HLSStream ?? null,
    posterUrl: api.content.PosterH ?? null,
    addedAt: parseDate(api.added),
  };
}

/** Why a clip from `start` to `end` (stream seconds) cannot be made, or null when it can. */
export function clipRangeProblem(
  start: number | null,
  end: number | null,
): "no_start" | "no_end" | "order" | "too_long" | null {
  if (start === null) return "no_start";
  if (end === null) return "no_end";
  if (end <= start) return "order";
  if (end - start > MAX_CLIP_SECONDS) return "too_long";
  return null;
}
