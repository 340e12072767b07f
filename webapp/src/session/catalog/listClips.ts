import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { components } from "@/api/schema.gen";
import { mapEvent, type CatalogEvent, type EventMapOptions } from "@/entities/event";
import { DEFAULT_PAGE_SIZE, nextPageParam, toPage, type Page } from "@/api/page";
import { useAudience, useEventMapOptions, type Audience } from "./viewer";

type ClipListRequest = components["schemas"]["ClipListRequest"];

/** What a highlight list asks POST /clip/list for. */
export interface ClipListParams {
  /** Highlight kinds (all when omitted). */
  type?: ClipListRequest["type"];
  /** The `_id`s of the events the clips were cut from. */
  eventIds?: string[];
  order?: "asc" | "desc";
  size?: number;
}

export async function fetchClipPage(
  params: ClipListParams,
  page: number,
  options: EventMapOptions,
  signal?: AbortSignal,
): Promise<Page<CatalogEvent>> {
  const body: ClipListRequest = {
    page,
    size: params.size ?? DEFAULT_PAGE_SIZE,
    sort: "event_date",
    order: params.order ?? "desc",
    next: true,
    count: false,
    type: params.type,
    event_id: params.eventIds,
  };
  const answer = await unwrap(api.POST("/clip/list", { body, signal }));
  return toPage(page, answer.content, (entry) => mapEvent(entry, options));
}

const key = (params: ClipListParams, audience: Audience, options: EventMapOptions) =>
  ["catalog", "clips", params, audience, options] as const;

export function clipListQueryOptions(params: ClipListParams, audience: Audience, options: EventMapOptions) {
  return queryOptions({
    queryKey: [...key(params, audience, options), "first"],
    queryFn: ({ signal }) => fetchClipPage(params, 0, options, signal),
  });
}

export function clipListInfiniteQueryOptions(params: ClipListParams, audience: Audience, options: EventMapOptions) {
  return infiniteQueryOptions({
    queryKey: [...key(params, audience, options), "pages"],
    queryFn: ({ pageParam, signal }) => fetchClipPage(params, pageParam, options, signal),
    initialPageParam: 0,
    getNextPageParam: nextPageParam,
  });
}

export function useClipList(params: ClipListParams) {
  return useQuery(clipListQueryOptions(params, useAudience(), useEventMapOptions()));
}

export function useInfiniteClipList(params: ClipListParams) {
  return useInfiniteQuery(clipListInfiniteQueryOptions(params, useAudience(), useEventMapOptions()));
}
