import type { EventListParams } from "../api/listEvents";
import type { ClipListParams } from "@/session/catalog/listClips";

/**
 * The event lists of the catalogue, defined once so the home rails and the "see all" pages ask
 * the same questions (and share their first page in the query cache).
 */
export const LIVE_EVENTS: EventListParams = {
  filters: { status: ["live"], media_type: ["event"] },
  sort: "event_date",
  order: "desc",
};
export const UPCOMING_EVENTS: EventListParams = {
  filters: { status: ["upcoming"], media_type: ["event"] },
  sort: "event_date",
  order: "asc",
};
/** Newest videos: finished events and highlights, most recent first. */
export const LATEST_VIDEOS: EventListParams = {
  filters: { status: ["archived", "vod"], media_type: ["event", "highlight"] },
  sort: "event_date",
  order: "desc",
};
export const ARCHIVED_EVENTS: EventListParams = {
  filters: { status: ["archived"], media_type: ["event"] },
  sort: "event_date",
  order: "desc",
};
export const CHANNELS: EventListParams = { filters: { status: ["channel"] }, sort: "order", order: "asc" };
export const HIGHLIGHTS: ClipListParams = { order: "desc" };
/** Live, upcoming and recent events, narrowed to what the viewer follows when they follow something. */
export function suggestedEvents(followedIdentityIds: readonly string[]): EventListParams {
  return {
    filters: {
      status: ["live", "upcoming", "archived"],
      media_type: ["event"],
      ...(followedIdentityIds.length ? { "identities.id": followedIdentityIds.slice(0, 50) } : {}),
    },
    sort: "event_date",
    order: "desc",
  };
}
