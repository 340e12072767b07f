import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { playbackKey } from "@/entities/savePlaybackPosition";

/** Forgets where the viewer stopped in a video: it leaves "Continue watching". */
export async function removePlaybackPosition(videoId: string): Promise<void> {
  await unwrap(api.POST("/user/remove_playback_position", { body: { video_id: videoId } }));
}

export function useRemovePlaybackPosition() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePlaybackPosition,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: playbackKey }),
  });
}
