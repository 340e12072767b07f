import { queryOptions, useQuery } from "@tanstack/react-query";
import { fetchEvent } from "./getEvent";
import { useReading, type Reading } from "./viewer";

/**
 * One event as a multiview tile reads it (GET /event/get_by_id, as the event page does): with the
 * signed stream address of a viewer who may watch it. A fresh answer is also how a playing
 * stream's token is renewed.
 */
export function eventQueryOptions(id: string, reading: Reading) {
  return queryOptions({
    queryKey: ["watching", "event", id, reading],
    queryFn: ({ signal }) => fetchEvent({ id }, reading.options, signal),
  });
}

/** The event and what renews its stream address (a new answer's, as the event page's player asks). */
export function useWatchedEvent(id: string) {
  const reading = useReading();
  const query = useQuery(eventQueryOptions(id, reading));
  return { query, renewStream: async () => (await fetchEvent({ id }, reading.options)).streamUrl };
}
