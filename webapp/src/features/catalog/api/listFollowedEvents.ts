import { queryOptions, useQuery } from "@tanstack/react-query";
import type { CatalogEvent, EventMapOptions } from "@/entities/event";
import type { FollowedIds } from "@/entities/followed";
import { fetchEventPage, type EventFilters } from "./listEvents";
import { useAudience, useEventMapOptions, type Audience } from "@/session/catalog/viewer";

/** Live games first, then the next kick-offs, each game once. */
export function orderFollowedEvents(events: readonly CatalogEvent[], size: number): CatalogEvent[] {
  const unique = new Map<string, CatalogEvent>();
  for (const event of events) if (!unique.has(event.id)) unique.set(event.id, event);
  return [...unique.values()]
    .sort((a, b) => Number(b.isLive) - Number(a.isLive) || a.startsAt.getTime() - b.startsAt.getTime())
    .slice(0, size);
}

/** Live and upcoming games of the followed teams, leagues and categories (one list call per kind). */
export async function fetchFollowedEvents(
  ids: FollowedIds,
  size: number,
  options: EventMapOptions,
  signal?: AbortSignal,
): Promise<CatalogEvent[]> {
  const scopes: EventFilters[] = [];
  if (ids.teams.length) scopes.push({ "search.teams.id": ids.teams });
  if (ids.identities.length) scopes.push({ "identities.id": ids.identities });
  const pages = await Promise.all(
    scopes.map((scope) =>
      fetchEventPage(
        { filters: { ...scope, media_type: ["event"], status: ["live", "upcoming"] }, order: "asc", size },
        0,
        options,
        signal,
      ),
    ),
  );
  return orderFollowedEvents(
    pages.flatMap((page) => page.entries),
    size,
  );
}

export function followedEventsQueryOptions(
  ids: FollowedIds,
  size: number,
  audience: Audience,
  options: EventMapOptions,
) {
  return queryOptions({
    queryKey: ["catalog", "followed-events", ids, size, audience, options],
    queryFn: ({ signal }) => fetchFollowedEvents(ids, size, options, signal),
    enabled: ids.identities.length + ids.teams.length > 0,
  });
}

/** "Your teams": what is on and coming up from everything the viewer follows. */
export function useFollowedEvents(ids: FollowedIds, size: number) {
  return useQuery(followedEventsQueryOptions(ids, size, useAudience(), useEventMapOptions()));
}
