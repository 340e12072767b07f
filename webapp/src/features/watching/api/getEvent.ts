import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { isClipMediaType, mapEvent, type CatalogEvent, type EventMapOptions, type MediaType } from "@/entities/event";
import { useAudience, useEventMapOptions, type Audience } from "@/session/catalog/viewer";

export interface EventLookup {
  id: string;
  /** Which identifier `id` is (default `_id`). */
  idType?: "_id" | "event_id" | "reference_id";
  /** Highlights and clips are read from GET /clip/get_by_id (spec §7). */
  mediaType?: MediaType;
}

export async function fetchEvent(
  lookup: EventLookup,
  options: EventMapOptions,
  signal?: AbortSignal,
): Promise<CatalogEvent> {
  const query = { idType: lookup.idType, media_type: lookup.mediaType };
  const params = { path: { id: lookup.id }, query };
  const answer = isClipMediaType(lookup.mediaType)
    ? await unwrap(api.GET("/clip/get_by_id/id/{id}", { params, signal }))
    : await unwrap(api.GET("/event/get_by_id/id/{id}", { params, signal }));
  return mapEvent(answer.content, options);
}

export function eventQueryOptions(lookup: EventLookup, audience: Audience, options: EventMapOptions) {
  return queryOptions({
    queryKey: ["catalog", "event", lookup, audience, options],
    queryFn: ({ signal }) => fetchEvent(lookup, options, signal),
  });
}

/** One event, highlight or clip; a 404 is an ApiError with status 404. */
export function useEvent(lookup: EventLookup) {
  return useQuery(eventQueryOptions(lookup, useAudience(), useEventMapOptions()));
}
