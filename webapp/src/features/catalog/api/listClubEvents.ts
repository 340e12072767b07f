import { queryOptions, useQuery } from "@tanstack/react-query";
import type { CatalogEvent, EventMapOptions } from "@/entities/event";
import { fetchEventPage, type EventFilters } from "./listEvents";
import { useAudience, useEventMapOptions, type Audience } from "@/session/catalog/viewer";

/** The favourite club of the profile (`favoriteClubId`, '{type}|{id}'): a team, league or category. */
export interface Club {
  type: "team" | "identity_item" | "identity";
  id: string;
}

export function parseClub(favoriteClubId: string | null | undefined): Club | null {
  const [type, id] = (favoriteClubId ?? "").split("|");
  if (!id || (type !== "team" && type !== "identity_item" && type !== "identity")) return null;
  return { type, id };
}

/** The club's own page: its team page (when team pages are on), league or category page. */
export function clubPath(club: Club, teamPagesOn: boolean): string | undefined {
  const id = encodeURIComponent(club.id);
  if (club.type === "team") return teamPagesOn ? `/team/${id}` : undefined;
  return club.type === "identity_item" ? `/league/${id}` : `/category/${id}`;
}

/** The club's live and coming games, soonest first; without any, its latest played ones. */
export async function fetchClubEvents(
  club: Club,
  size: number,
  options: EventMapOptions,
  signal?: AbortSignal,
): Promise<CatalogEvent[]> {
  const scope: EventFilters = club.type === "team" ? { "search.teams.id": [club.id] } : { "identities.id": [club.id] };
  const coming = await fetchEventPage(
    { filters: { ...scope, media_type: ["event"], status: ["live", "upcoming"] }, order: "asc", size },
    0,
    options,
    signal,
  );
  if (coming.entries.length) return coming.entries;
  const played = await fetchEventPage(
    { filters: { ...scope, media_type: ["event"], status: ["archived"] }, order: "desc", size },
    0,
    options,
    signal,
  );
  return played.entries;
}

export function clubEventsQueryOptions(club: Club, size: number, audience: Audience, options: EventMapOptions) {
  return queryOptions({
    queryKey: ["catalog", "club-events", club, size, audience, options],
    queryFn: ({ signal }) => fetchClubEvents(club, size, options, signal),
  });
}

export function useClubEvents(club: Club | null, size: number) {
  const query = clubEventsQueryOptions(club ?? { type: "team", id: "" }, size, useAudience(), useEventMapOptions());
  return useQuery({ ...query, enabled: club !== null });
}
