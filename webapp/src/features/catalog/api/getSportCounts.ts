import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { LIVE_REFRESH_MS } from "./listEvents";

export interface SportCount {
  sportType: string;
  title: string;
  count: number;
}

export async function fetchSportCounts(signal?: AbortSignal): Promise<SportCount[]> {
  const answer = await unwrap(
    api.GET("/event/grouped_sport_count", { params: { query: { "status[]": ["live"] } }, signal }),
  );
  return answer.content.entries.map(({ sportType, title, count }) => ({ sportType, title, count }));
}

export const sportCountsQueryOptions = queryOptions({
  queryKey: ["catalog", "sport-counts", "live"],
  queryFn: ({ signal }) => fetchSportCounts(signal),
  refetchInterval: LIVE_REFRESH_MS,
});

/** How many events are live per sport: the tabs of /live. */
export function useSportCounts() {
  return useQuery(sportCountsQueryOptions);
}
