import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapUserClip, type UserClip } from "@/entities/clip";
import { userClipsKey } from "./listUserClips";

export interface NewClip {
  eventId: string;
  title: string;
  /** Stream seconds. */
  start: number;
  end: number;
}

/** Cuts a clip of an event the viewer may watch (times in seconds; at most 10 minutes). */
export async function createClip(clip: NewClip): Promise<UserClip> {
  const answer = await unwrap(
    api.POST("/clip/create", {
      body: {
        event_id: clip.eventId,
        title: clip.title,
        startTime: clip.start,
        endTime: clip.end,
        media_type: "user_clip",
      },
    }),
  );
  return mapUserClip(answer.content);
}

export function useCreateClip() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createClip,
    onSuccess: (clip) => queryClient.invalidateQueries({ queryKey: userClipsKey(clip.eventId) }),
  });
}
