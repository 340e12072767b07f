import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapTag, type TagType, type TimelineTag } from "@/entities/tag";
import { tagsKey } from "./listTags";

export interface NewTag {
  targetId: string;
  title: string;
  /** Stream seconds. */
  time: number;
  /** Whether the video is live (the server records the tag's videoType). */
  live: boolean;
  global?: boolean;
  type?: TagType;
}

/** Tags a moment: times go in seconds, with mode sync and stream hd (spec §3). */
export async function saveTag(tag: NewTag): Promise<TimelineTag> {
  const answer = await unwrap(
    api.POST("/tag/saveV2", {
      body: {
        targetId: tag.targetId,
        title: tag.title,
        startTime: tag.time,
        endTime: tag.time,
        type: tag.type ?? "user",
        global: tag.global ?? false,
        mode: "sync",
        videoType: tag.live ? "live" : "vod",
        streamName: "hd",
      },
    }),
  );
  return mapTag(answer.content);
}

export function useSaveTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTag,
    onSuccess: (tag) => queryClient.invalidateQueries({ queryKey: tagsKey(tag.targetId) }),
  });
}
