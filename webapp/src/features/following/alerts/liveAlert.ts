import type { FollowedEventLivePayload } from "@/realtime/events.gen";
import { withoutScore } from "@/entities/spoilers";
import { eventPath } from "@/entities/event";
import { splitLocalePath } from "@/i18n/locales";

/** What a go-live alert shows: the event's title as the viewer may see it, and where "Watch now" goes. */
export interface LiveAlertToast {
  /** Reused as the toast's id: a second alert of the same event (another socket) replaces the first. */
  id: string;
  title: string;
  path: string;
}

/**
 * The toast for `alert` on the page at `pathname`, or null when that page is the event's own
 * (it goes live there before the viewer's eyes). `scoresHidden`: spoiler-free mode is on for the
 * event, so its title loses any score the server left in (the account's mode may differ from this tab's).
 */
export function liveAlertToast(
  alert: FollowedEventLivePayload,
  pathname: string,
  scoresHidden: boolean,
): LiveAlertToast | null {
  const path = eventPath({ id: alert.eventId, mediaType: "event", isChannel: false });
  if (splitLocalePath(pathname).path.replace(/\/+$/, "") === path) return null;
  return {
    id: `live-alert-${alert.eventId}`,
    title: scoresHidden ? withoutScore(alert.title) : alert.title,
    path,
  };
}
