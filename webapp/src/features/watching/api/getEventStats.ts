import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapEventStats, type EventStats } from "@/entities/stats";

export async function fetchEventStats(eventId: string, signal?: AbortSignal): Promise<EventStats> {
  const answer = await unwrap(
    api.GET("/event/stats", { params: { query: { id: eventId, score: true, overview: true } }, signal }),
  );
  return mapEventStats(answer.content);
}

export function eventStatsQueryOptions(eventId: string) {
  return queryOptions({
    queryKey: ["catalog", "event-stats", eventId],
    queryFn: ({ signal }) => fetchEventStats(eventId, signal),
  });
}

/** The stats partner's score and match stats; 404 stats_not_found when the game has none. */
export function useEventStats(eventId: string, enabled = true) {
  return useQuery({ ...eventStatsQueryOptions(eventId), enabled });
}
