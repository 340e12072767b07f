import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapEvent, type CatalogEvent, type EventMapOptions } from "@/entities/event";
import { DEFAULT_PAGE_SIZE, nextPageParam, toPage, type Page } from "./page";
import { useAudience, useEventMapOptions, type Audience } from "./viewer";

/** The server refuses longer queries (openapi: q maxLength 100). */
export const SEARCH_MAX_LENGTH = 100;

export async function fetchSearchPage(
  q: string,
  page: number,
  options: EventMapOptions,
  signal?: AbortSignal,
): Promise<Page<CatalogEvent>> {
  const answer = await unwrap(
    api.GET("/event/search", { params: { query: { q, page, size: DEFAULT_PAGE_SIZE } }, signal }),
  );
  return toPage(page, answer.content, (entry) => mapEvent(entry, options));
}

export function searchEventsInfiniteQueryOptions(q: string, audience: Audience, options: EventMapOptions) {
  return infiniteQueryOptions({
    queryKey: ["catalog", "search", q, audience, options],
    queryFn: ({ pageParam, signal }) => fetchSearchPage(q, pageParam, options, signal),
    initialPageParam: 0,
    getNextPageParam: nextPageParam,
    enabled: q.length > 0,
    // The previous results stay up while the next query loads, instead of skeletons at every pause.
    placeholderData: keepPreviousData,
  });
}

/** Text search over titles and team names; idle while the query is empty. */
export function useSearchEvents(q: string) {
  return useInfiniteQuery(
    searchEventsInfiniteQueryOptions(q.trim().slice(0, SEARCH_MAX_LENGTH), useAudience(), useEventMapOptions()),
  );
}
