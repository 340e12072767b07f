import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { components } from "@/api/schema.gen";
import { mapEvent, type CatalogEvent, type EventMapOptions } from "@/entities/event";
import { followedIdsOf, type FollowedIds } from "@/entities/followed";
import { useAppConfig } from "@/lib/config";
import { useFollowedItems } from "./followList";

type EventListRequest = components["schemas"]["EventListRequest"];
type EventFilters = components["schemas"]["EventFilters"];

const COMING_SIZE = 30;
const PAST_SIZE = 12;

/** How closely an event matches what the viewer follows: a team, then a league, then a category. */
export function matchScore(event: CatalogEvent, ids: FollowedIds): number {
  const teams = new Set(ids.teams);
  const identities = new Set(ids.identities);
  let score = 0;
  if (event.teams && (teams.has(event.teams.home.id) || teams.has(event.teams.away.id))) score += 4;
  if (event.league && identities.has(event.league.id)) score += 2;
  if (event.category && identities.has(event.category.id)) score += 1;
  return score;
}

const STATUS_RANK: Record<string, number> = { live: 0, upcoming: 1 };

/**
 * The recommendation order: what is on now, then what comes next, then what has been played
 * (spec "ordered by relevance and kickoff"); within each, the closer match first, then the
 * kick-off nearest to now (upcoming by earliest kick-off, played by latest).
 */
export function rankRecommendations(events: readonly CatalogEvent[], ids: FollowedIds): CatalogEvent[] {
  const unique = new Map<string, CatalogEvent>();
  for (const event of events) if (!unique.has(event.id)) unique.set(event.id, event);
  const bucket = (event: CatalogEvent) => STATUS_RANK[event.status] ?? 2;
  return [...unique.values()].sort((a, b) => {
    const byBucket = bucket(a) - bucket(b);
    if (byBucket) return byBucket;
    const byScore = matchScore(b, ids) - matchScore(a, ids);
    if (byScore) return byScore;
    const byKickoff = a.startsAt.getTime() - b.startsAt.getTime();
    return bucket(a) === 2 ? -byKickoff : byKickoff;
  });
}

async function fetchEvents(
  filters: EventFilters,
  sort: { order: "asc" | "desc"; size: number },
  options: EventMapOptions,
  signal?: AbortSignal,
): Promise<CatalogEvent[]> {
  const body: EventListRequest = {
    page: 0,
    size: sort.size,
    sort: "event_date",
    order: sort.order,
    next: false,
    count: false,
    filters,
  };
  const answer = await unwrap(api.POST("/event/list", { body, signal }));
  return answer.content.entries.map((entry) => mapEvent(entry, options));
}

export async function fetchRecommendations(
  ids: FollowedIds,
  options: EventMapOptions,
  signal?: AbortSignal,
): Promise<CatalogEvent[]> {
  const scopes: EventFilters[] = [];
  if (ids.identities.length) scopes.push({ "identities.id": ids.identities });
  if (ids.teams.length) scopes.push({ "search.teams.id": ids.teams });
  const requests = scopes.flatMap((scope) => [
    fetchEvents(
      { ...scope, media_type: ["event"], status: ["live", "upcoming"] },
      { order: "asc", size: COMING_SIZE },
      options,
      signal,
    ),
    fetchEvents(
      { ...scope, media_type: ["event"], status: ["archived"] },
      { order: "desc", size: PAST_SIZE },
      options,
      signal,
    ),
  ]);
  return rankRecommendations((await Promise.all(requests)).flat(), ids);
}

export function recommendationsQueryOptions(ids: FollowedIds, options: EventMapOptions) {
  return queryOptions({
    queryKey: ["following", "recommendations", ids, options],
    queryFn: ({ signal }) => fetchRecommendations(ids, options, signal),
    enabled: ids.identities.length + ids.teams.length > 0,
  });
}

export function useEventMapOptions(): EventMapOptions {
  const config = useAppConfig();
  return {
    realKickoff: config.options.real_kickoff,
    teamsShortName: config.options.teams_short_name,
    leaguesView: config.enable_leagues_view,
    genderClassification: config.options.gender_classification,
  };
}

/** Events from what the viewer follows, ranked. */
export function useRecommendations() {
  const items = useFollowedItems();
  const ids = followedIdsOf(items);
  return { ...useQuery(recommendationsQueryOptions(ids, useEventMapOptions())), followsSomething: items.length > 0 };
}
