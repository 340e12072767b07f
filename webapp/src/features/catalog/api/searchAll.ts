import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { components } from "@/api/schema.gen";
import { DEFAULT_PAGE_SIZE } from "@/api/page";
import { useAudience, type Audience } from "@/session/catalog/viewer";

type Answer = components["schemas"]["SearchResponse"]["content"];

/** A team, league or category a search found, with what its link and tile need. */
export interface SearchHit {
  id: string;
  title: string;
  /** A team's logo, a league's or category's poster. */
  imageUrl: string | null;
  sportType: string | null;
}

/** A sport a search named, with how many events it has. */
export interface SportHit {
  sportType: string;
  title: string;
  count: number;
}

export interface SearchGroups {
  teams: SearchHit[];
  leagues: SearchHit[];
  categories: SearchHit[];
  sports: SportHit[];
  /** The first page of events, as the server sent it (mapped by the events list: searchEvents). */
  events: Answer["events"];
}

/** Each group's size, and the first page of events: the events list goes on from there. */
export const SEARCH_GROUP_SIZE = DEFAULT_PAGE_SIZE;

function hit(item: Answer["teams"][number]): SearchHit {
  return { id: item._id, title: item.title, imageUrl: item.logo ?? item.imageUrl ?? null, sportType: item.sportType };
}

export async function fetchSearchAll(q: string, signal?: AbortSignal): Promise<SearchGroups> {
  const answer = await unwrap(api.GET("/search", { params: { query: { q, size: SEARCH_GROUP_SIZE } }, signal }));
  const { teams, leagues, categories, sports, events } = answer.content;
  return {
    teams: teams.map(hit),
    leagues: leagues.map(hit),
    categories: categories.map(hit),
    sports: sports.map(({ sportType, title, count }) => ({ sportType, title, count })),
    events,
  };
}

export function searchAllQueryOptions(q: string, audience: Audience) {
  return queryOptions({
    queryKey: ["catalog", "search-all", q, audience],
    queryFn: ({ signal }) => fetchSearchAll(q, signal),
    enabled: q.length > 0,
    // The events list reads its first page from this answer (searchEvents): asked once for both.
    staleTime: 30_000,
    // The previous groups stay up while the next query loads.
    placeholderData: keepPreviousData,
  });
}

/** Teams, leagues, categories and sports whose names hold every word of `q` (typos forgiven). */
export function useSearchAll(q: string) {
  return useQuery(searchAllQueryOptions(q, useAudience()));
}
