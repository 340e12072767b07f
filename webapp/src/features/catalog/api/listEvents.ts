import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { components } from "@/api/schema.gen";
import { mapEvent, type CatalogEvent, type EventMapOptions } from "@/entities/event";
import { DEFAULT_PAGE_SIZE, nextPageParam, toPage, type Page } from "@/api/page";
import { useAudience, useEventMapOptions, type Audience } from "@/session/catalog/viewer";

type EventListRequest = components["schemas"]["EventListRequest"];
export type EventFilters = components["schemas"]["EventFilters"];
export type EventSort = EventListRequest["sort"];

/** What an event list asks POST /event/list for; paging is added per page. */
export interface EventListParams {
  filters?: EventFilters;
  sort?: EventSort;
  order?: "asc" | "desc";
  size?: number;
}

export async function fetchEventPage(
  params: EventListParams,
  page: number,
  options: EventMapOptions,
  signal?: AbortSignal,
): Promise<Page<CatalogEvent>> {
  const body: EventListRequest = {
    page,
    size: params.size ?? DEFAULT_PAGE_SIZE,
    sort: params.sort ?? "event_date",
    order: params.order ?? "desc",
    next: true,
    count: false,
    filters: params.filters,
  };
  const answer = await unwrap(api.POST("/event/list", { body, signal }));
  return toPage(page, answer.content, (entry) => mapEvent(entry, options));
}

/** Live lists go stale within minutes: games start and end while the page stays open. */
export const LIVE_REFRESH_MS = 60_000;
const refreshIntervalOf = (params: EventListParams) =>
  params.filters?.status?.includes("live") ? LIVE_REFRESH_MS : false;

const key = (params: EventListParams, audience: Audience, options: EventMapOptions) =>
  ["catalog", "events", params, audience, options] as const;

/** The first page only: the rails of the home page and of league pages. */
export function eventListQueryOptions(params: EventListParams, audience: Audience, options: EventMapOptions) {
  return queryOptions({
    queryKey: [...key(params, audience, options), "first"],
    queryFn: ({ signal }) => fetchEventPage(params, 0, options, signal),
    refetchInterval: refreshIntervalOf(params),
  });
}

export function eventListInfiniteQueryOptions(params: EventListParams, audience: Audience, options: EventMapOptions) {
  return infiniteQueryOptions({
    queryKey: [...key(params, audience, options), "pages"],
    queryFn: ({ pageParam, signal }) => fetchEventPage(params, pageParam, options, signal),
    initialPageParam: 0,
    getNextPageParam: nextPageParam,
    refetchInterval: refreshIntervalOf(params),
  });
}

export function useEventList(params: EventListParams) {
  return useQuery(eventListQueryOptions(params, useAudience(), useEventMapOptions()));
}

export function useInfiniteEventList(params: EventListParams) {
  return useInfiniteQuery(eventListInfiniteQueryOptions(params, useAudience(), useEventMapOptions()));
}
