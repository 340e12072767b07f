import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapEvent, type CatalogEvent } from "@/entities/event";
import { useReading, type Reading } from "./viewer";

/** More live events than this at once is more than anyone picks four from. */
const LIVE_LIST_SIZE = 50;
/** Games start and end while the page stays open. */
const LIVE_REFRESH_MS = 60_000;

/** The events live now, newest kick-off first (POST /event/list, status live, games only). */
export async function fetchLiveEvents(reading: Reading, signal?: AbortSignal): Promise<CatalogEvent[]> {
  const answer = await unwrap(
    api.POST("/event/list", {
      body: {
        page: 0,
        size: LIVE_LIST_SIZE,
        sort: "event_date",
        order: "desc",
        next: false,
        count: false,
        filters: { status: ["live"], media_type: ["event"] },
      },
      signal,
    }),
  );
  return answer.content.entries.map((entry) => mapEvent(entry, reading.options));
}

export function liveEventsQueryOptions(reading: Reading) {
  return queryOptions({
    queryKey: ["watching", "live-events", reading],
    queryFn: ({ signal }) => fetchLiveEvents(reading, signal),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export function useLiveEvents() {
  return useQuery(liveEventsQueryOptions(useReading()));
}
