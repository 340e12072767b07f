import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapEvent, type CatalogEvent } from "@/entities/event";
import { useReading, type Reading } from "./viewer";

/**
 * One event as the event page reads it (GET /event/get_by_id): with the signed stream address of a
 * viewer who may watch it. A fresh answer is also how a playing stream's token is renewed.
 */
export async function fetchEvent(id: string, reading: Reading, signal?: AbortSignal): Promise<CatalogEvent> {
  const answer = await unwrap(api.GET("/event/get_by_id/id/{id}", { params: { path: { id } }, signal }));
  return mapEvent(answer.content, reading.options);
}

export function eventQueryOptions(id: string, reading: Reading) {
  return queryOptions({
    queryKey: ["watching", "event", id, reading],
    queryFn: ({ signal }) => fetchEvent(id, reading, signal),
  });
}

/** The event and what renews its stream address (a new answer's, as the event page's player asks). */
export function useWatchedEvent(id: string) {
  const reading = useReading();
  const query = useQuery(eventQueryOptions(id, reading));
  return { query, renewStream: async () => (await fetchEvent(id, reading)).streamUrl };
}
