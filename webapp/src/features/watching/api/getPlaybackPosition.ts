import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapPlaybackPosition, type PlaybackPosition } from "@/entities/playback";
import { playbackKey } from "@/entities/savePlaybackPosition";

/** Where the viewer would resume the video; null when it starts from the beginning. */
export async function fetchPlaybackPosition(videoId: string, signal?: AbortSignal): Promise<PlaybackPosition | null> {
  const answer = await unwrap(
    api.GET("/user/get_playback_position", { params: { query: { video_id: videoId } }, signal }),
  );
  return answer.content ? mapPlaybackPosition(answer.content) : null;
}

export function playbackPositionQueryOptions(videoId: string) {
  return queryOptions({
    queryKey: [...playbackKey, "position", videoId],
    queryFn: ({ signal }) => fetchPlaybackPosition(videoId, signal),
    // Asked once per visit of the page: the answer is where playback starts, not a live value.
    staleTime: 0,
    gcTime: 0,
  });
}

/** The signed-in viewer's resume position in an archived event or clip (`enabled` otherwise false). */
export function usePlaybackPositionQuery(videoId: string, enabled: boolean) {
  return useQuery({ ...playbackPositionQueryOptions(videoId), enabled });
}
