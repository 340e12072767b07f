import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { EventMapOptions } from "@/entities/event";
import { mapContinueWatchingEntry, type ContinueWatchingItem } from "@/entities/playback";
import { toPage, type Page } from "@/api/page";
import { playbackKey } from "@/entities/savePlaybackPosition";
import { useEventMapOptions } from "@/session/catalog/viewer";

export async function fetchContinueWatching(
  size: number,
  options: EventMapOptions,
  signal?: AbortSignal,
): Promise<Page<ContinueWatchingItem>> {
  const answer = await unwrap(api.GET("/user/get_continue_watching", { params: { query: { size } }, signal }));
  return toPage(0, answer.content, (entry) => mapContinueWatchingEntry(entry, options));
}

export function continueWatchingQueryOptions(size: number, options: EventMapOptions) {
  return queryOptions({
    queryKey: [...playbackKey, "continue", size, options],
    queryFn: ({ signal }) => fetchContinueWatching(size, options, signal),
  });
}

/** The signed-in viewer's started, unfinished videos, most recently watched first. */
export function useContinueWatching(size: number, enabled: boolean) {
  return useQuery({ ...continueWatchingQueryOptions(size, useEventMapOptions()), enabled });
}
