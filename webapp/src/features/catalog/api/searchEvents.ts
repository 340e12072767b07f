import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery, type QueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapEvent, type CatalogEvent, type EventMapOptions } from "@/entities/event";
import { DEFAULT_PAGE_SIZE, nextPageParam, toPage, type Page } from "@/api/page";
import { searchAllQueryOptions } from "./searchAll";
import { useAudience, useEventMapOptions, type Audience } from "@/session/catalog/viewer";

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

/** The first page comes with the grouped answer (one request for both); its page size is
 * DEFAULT_PAGE_SIZE too (SEARCH_GROUP_SIZE), so the pages after it line up. */
async function fetchFirstPage(
  client: QueryClient,
  q: string,
  audience: Audience,
  options: EventMapOptions,
): Promise<Page<CatalogEvent>> {
  const groups = await client.fetchQuery(searchAllQueryOptions(q, audience));
  return toPage(0, groups.events, (entry) => mapEvent(entry, options));
}

export function searchEventsInfiniteQueryOptions(q: string, audience: Audience, options: EventMapOptions) {
  return infiniteQueryOptions({
    queryKey: ["catalog", "search", q, audience, options],
    queryFn: ({ pageParam, signal, client }) =>
      pageParam === 0 ? fetchFirstPage(client, q, audience, options) : fetchSearchPage(q, pageParam, options, signal),
    initialPageParam: 0,
    getNextPageParam: nextPageParam,
    enabled: q.length > 0,
    // The previous results stay up while the next query loads, instead of skeletons at every pause.
    placeholderData: keepPreviousData,
  });
}

/** Events whose titles or team names hold every word (typos forgiven); idle while the query is empty. */
export function useSearchEvents(q: string) {
  return useInfiniteQuery(
    searchEventsInfiniteQueryOptions(q.trim().slice(0, SEARCH_MAX_LENGTH), useAudience(), useEventMapOptions()),
  );
}
