import type { components } from "@/api/schema.gen";
import { NO_TITLE } from "./event";

/** A tagged moment as the API sends it (times in milliseconds). */
export type ApiTag = components["schemas"]["Tag"];
export type TagType = components["schemas"]["TagType"];

/** A moment on a video's timeline (spec §3 "Media event/tag"), in stream seconds. */
export interface TimelineTag {
  id: string;
  /** The event or clip the tag is on. */
  targetId: string;
  /** Who tagged it; null for the official match tags. */
  ownerId: string | null;
  title: string;
  /** Where the moment starts, in stream seconds: startTime, else the timePTS fallback. */
  time: number;
  /** Where it ends, in stream seconds; null when the tag marks an instant without end. */
  endTime: number | null;
  type: TagType;
  subtype: string | null;
  /** Everyone sees it (official tags, and those of viewers allowed to create global tags). */
  global: boolean;
  playerNumber: string | null;
  playerColor: string | null;
  teamId: string | null;
}

const seconds = (ms: number | null | undefined) => (typeof ms === "number" && ms >= 0 ? ms / 1000 : null);

/** The one API → UI mapping of tags: milliseconds become stream seconds, the title has its default. */
export function mapTag(api: ApiTag): TimelineTag {
  return {
    id: api._id,
    targetId: api.targetId,
    ownerId: api.userId ?? null,
    title: api.title || NO_TITLE,
    time: seconds(api.startTime) ?? seconds(api.timePTS) ?? 0,
    endTime: seconds(api.endTime),
    type: api.type,
    subtype: api.subtype ?? null,
    global: api.global,
    playerNumber: api.playerNumber ?? null,
    playerColor: api.playerColor ?? null,
    teamId: api.teamId ?? null,
  };
}

/** Tags in timeline order (ties by title), each id once: global and own lists may be merged. */
export function timelineOrder(tags: readonly TimelineTag[]): TimelineTag[] {
  const unique = new Map(tags.map((tag) => [tag.id, tag]));
  return [...unique.values()].sort((a, b) => a.time - b.time || a.title.localeCompare(b.title));
}

/** Whether a viewer may rename and delete a tag: their own, and their global ones only with that right. */
export function canEditTag(
  tag: Pick<TimelineTag, "ownerId" | "global">,
  viewer: { id: string; canCreateGlobalTag: boolean } | null,
): boolean {
  if (!viewer || tag.ownerId !== viewer.id) return false;
  return !tag.global || viewer.canCreateGlobalTag;
}
