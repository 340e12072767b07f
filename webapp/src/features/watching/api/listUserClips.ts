import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapUserClip, type UserClip } from "@/entities/clip";

/** Spec §9: the event page loads 24 items per media list. */
export const USER_CLIPS_SIZE = 24;

export async function fetchUserClips(eventId: string, signal?: AbortSignal): Promise<UserClip[]> {
  const answer = await unwrap(
    api.POST("/clip/user_list", {
      body: {
        page: 0,
        size: USER_CLIPS_SIZE,
        next: false,
        count: false,
        sort: "added",
        order: "desc",
        event_id: [eventId],
        media_type: ["user_clip", "user_highlight"],
      },
      signal,
    }),
  );
  return answer.content.entries.map(mapUserClip);
}

/** The viewer's clips of one event (mutations invalidate it). */
export const userClipsKey = (eventId: string) => ["catalog", "user-clips", eventId] as const;

export function userClipsQueryOptions(eventId: string) {
  return queryOptions({
    queryKey: userClipsKey(eventId),
    queryFn: ({ signal }) => fetchUserClips(eventId, signal),
  });
}

/** The signed-in viewer's own clips cut from an event, newest first. */
export function useUserClips(eventId: string, enabled: boolean) {
  return useQuery({ ...userClipsQueryOptions(eventId), enabled });
}
