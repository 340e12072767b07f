import type { components } from "@/api/schema.gen";

type ApiFollowEntry = components["schemas"]["FollowEntry"];
type ApiIdentity = components["schemas"]["Identity"];
export type FollowType = components["schemas"]["FollowType"];

/** Something the viewer follows, as the UI uses it (spec §3 "Followed item"). */
export interface FollowedItem {
  id: string;
  /** The short title when the teams-short-name option is on and the item has one. */
  title: string;
  type: FollowType;
  /** PosterH for identity items (leagues, categories), the logo for teams. */
  imageUrl: string | null;
  /** The category ids the item belongs to. */
  identitiesId: string[];
}

export interface FollowedMapOptions {
  teamsShortName: boolean;
}

export function mapFollowedItem(
  item: ApiIdentity,
  type: FollowType,
  { teamsShortName }: FollowedMapOptions,
): FollowedItem {
  const isTeam = type === "team" || item.media_type === "team";
  const shortTitle = isTeam ? item.shortName || item.shortTitle : item.shortTitle;
  return {
    id: item._id,
    title: (teamsShortName && shortTitle) || item.title,
    type,
    imageUrl: (isTeam ? item.logo : item.content?.PosterH) ?? null,
    identitiesId: [...(item.identityId ?? [])],
  };
}

export function mapFollowEntry(entry: ApiFollowEntry, options: FollowedMapOptions): FollowedItem {
  return mapFollowedItem(entry.item, entry.type, options);
}

/** The session keeps followed items in a map by id (spec §3 "User session state"). */
export function mapFollowEntries(
  entries: readonly ApiFollowEntry[],
  options: FollowedMapOptions,
): Record<string, FollowedItem> {
  const followed: Record<string, FollowedItem> = {};
  for (const entry of entries) {
    const item = mapFollowEntry(entry, options);
    followed[item.id] = item;
  }
  return followed;
}

/** The contract's event list takes at most 50 ids per filter. */
const MAX_FOLLOWED_IDS = 50;

/** What the viewer follows, as the event list's filters take it: leagues and categories, and teams apart. */
export interface FollowedIds {
  identities: string[];
  teams: string[];
}

export function followedIdsOf(items: readonly FollowedItem[]): FollowedIds {
  const identities = new Set<string>();
  const teams = new Set<string>();
  for (const item of items) (item.type === "team" ? teams : identities).add(item.id);
  return {
    identities: [...identities].sort().slice(0, MAX_FOLLOWED_IDS),
    teams: [...teams].sort().slice(0, MAX_FOLLOWED_IDS),
  };
}
