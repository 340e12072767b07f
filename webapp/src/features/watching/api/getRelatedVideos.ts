import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapEvent, type CatalogEvent, type EventMapOptions } from "@/entities/event";
import { useAudience, useEventMapOptions, type Audience } from "@/session/catalog/viewer";

/** Spec §9: the event page loads 24 items per media list. */
export const RELATED_VIDEOS_SIZE = 24;

export async function fetchRelatedVideos(
  id: string,
  options: EventMapOptions,
  signal?: AbortSignal,
): Promise<CatalogEvent[]> {
  const answer = await unwrap(
    api.GET("/vod/get_related_videos", { params: { query: { id, page: 0, size: RELATED_VIDEOS_SIZE } }, signal }),
  );
  return answer.content.entries.map((entry) => mapEvent(entry, options));
}

export function relatedVideosQueryOptions(id: string, audience: Audience, options: EventMapOptions) {
  return queryOptions({
    queryKey: ["catalog", "related", id, audience, options],
    queryFn: ({ signal }) => fetchRelatedVideos(id, options, signal),
  });
}

/** Archived events and highlights of the same teams, then the same league. */
export function useRelatedVideos(id: string, enabled = true) {
  return useQuery({ ...relatedVideosQueryOptions(id, useAudience(), useEventMapOptions()), enabled });
}
