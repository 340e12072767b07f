import type { components } from "@/api/schema.gen";

/** An event, highlight or clip as the API sends it (spec §3 "Event (from API)"). */
export type ApiEvent = components["schemas"]["Event"];
export type MediaType = components["schemas"]["MediaType"];
export type EventStatus = components["schemas"]["EventStatus"];
export type CommerceCoverage = NonNullable<ApiEvent["commerceCoverage"]>[number];
/** The live input the event plays is away: `reconnecting` within the grace, `interrupted` past it. */
export type LiveFeed = NonNullable<ApiEvent["liveFeed"]>;

/** The config options that change how an event reads (spec §3, customer config). */
export interface EventMapOptions {
  /** real_kickoff: the real kick-off (gameStartDate) replaces the scheduled date. */
  realKickoff: boolean;
  /** teams_short_name: teams appear by their short names. */
  teamsShortName: boolean;
  /** enable_leagues_view: 'league•category' meta titles for events with teams. */
  leaguesView: boolean;
  /** gender_classification: the event's gender is shown. */
  genderClassification: boolean;
}

export const DEFAULT_EVENT_MAP_OPTIONS: EventMapOptions = {
  realKickoff: false,
  teamsShortName: false,
  leaguesView: false,
  genderClassification: false,
};

export interface EventTeam {
  id: string;
  /** The name to display (the short name with the teams-short-name option). */
  name: string;
  fullName: string;
  shortName: string;
  logoUrl: string | null;
  color: string;
}

export interface EventIdentity {
  id: string;
  title: string;
  /** identity: a main category (sport); identity_item: a league. */
  kind: "identity" | "identity_item";
}

/** Media types served by GET /clip/get_by_id instead of GET /event/get_by_id (spec §7). */
export const CLIP_MEDIA_TYPES: readonly MediaType[] = ["highlight", "clip", "user_clip", "user_highlight"];

export function isClipMediaType(mediaType: string | null | undefined): mediaType is MediaType {
  return !!mediaType && (CLIP_MEDIA_TYPES as readonly string[]).includes(mediaType);
}

/** An event as every list, card and page of the catalogue uses it. */
export interface CatalogEvent {
  id: string;
  /** The external id (for clips: the `_id` of the event they were cut from). */
  eventId: string;
  referenceId: string;
  title: string;
  description: string | null;
  /** Kick-off shown to viewers: gameStartDate with the real-kickoff option, else event_date. */
  startsAt: Date;
  endsAt: Date | null;
  status: EventStatus;
  mediaType: MediaType;
  eventType: string;
  sportType: string | null;
  isLive: boolean;
  /** Why a live event shows no new pictures (its feed is away); null while all is well. */
  liveFeed: LiveFeed | null;
  isChannel: boolean;
  isClip: boolean;
  /** eventType externalContent marks an event played elsewhere. */
  isExternal: boolean;
  /** Home and away teams; null when gameType is other or the API has none. */
  teams: { home: EventTeam; away: EventTeam } | null;
  posterUrl: string | null;
  league: EventIdentity | null;
  category: EventIdentity | null;
  /** 'league•category' with the leagues view on and teams present; null otherwise. */
  metaTitle: string | null;
  /** Only with the gender-classification option. */
  gender: "male" | "female" | "mixed" | null;
  commerceType: components["schemas"]["CommerceType"];
  monetisation: components["schemas"]["MonetisationMode"][];
  commerceCoverage: CommerceCoverage[];
  isAvailableForUser: boolean;
  isAvailableInUserRegion: boolean;
  /** Clip length in seconds (highlights and clips). */
  durationSeconds: number | null;
  statsEnabled: boolean;
  /** The programme guide URL of a channel. */
  epgUrl: string | null;
  /** The stream address (signed for viewers who may watch). */
  streamUrl: string | null;
  /** The panoramic view's stream address, when the event has one (signed like streamUrl). */
  panoStreamUrl: string | null;
  /** The VAST document of the pre-roll ad played before the video, when the event has one. */
  vastUrl: string | null;
}

export const NO_TITLE = "NO TITLE";

function mapTeam(team: components["schemas"]["TeamRef"], teamsShortName: boolean): EventTeam {
  return {
    id: team.teamId,
    name: (teamsShortName && team.shortName) || team.name,
    fullName: team.name,
    shortName: team.shortName,
    logoUrl: team.logo ?? null,
    color: team.color,
  };
}

function mapIdentity(ref: components["schemas"]["IdentityRef"]): EventIdentity {
  return { id: ref._id, title: ref.title || NO_TITLE, kind: ref.media_type };
}

function parseDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The one API → UI mapping of events, highlights and clips. */
export function mapEvent(api: ApiEvent, options: EventMapOptions = DEFAULT_EVENT_MAP_OPTIONS): CatalogEvent {
  const hasTeams = api.gameType !== "other" && !!api.eventTeams;
  const teams =
    hasTeams && api.eventTeams
      ? {
          home: mapTeam(api.eventTeams.homeTeam, options.teamsShortName),
          away: mapTeam(api.eventTeams.awayTeam, options.teamsShortName),
        }
      : null;
  const league = api.mediaIdentities.find((ref) => ref.media_type === "identity_item");
  const category = api.mediaIdentities.find((ref) => ref.media_type === "identity");
  const scheduled = parseDate(api.event_date) ?? new Date(0);
  const kickoff = options.realKickoff ? parseDate(api.gameStartDate) : null;
  const isUserClip = api.media_type === "user_clip" || api.media_type === "user_highlight";

  return {
    id: api._id,
    eventId: api.event_id,
    referenceId: api.reference_id,
    title: api.title || NO_TITLE,
    description: api.description || null,
    startsAt: kickoff ?? scheduled,
    endsAt: parseDate(api.endDate),
    status: api.status,
    mediaType: api.media_type,
    eventType: api.eventType,
    sportType: api.sportType ?? null,
    isLive: api.status === "live",
    liveFeed: api.liveFeed ?? null,
    isChannel: api.status === "channel" || api.eventType === "channel",
    isClip: isClipMediaType(api.media_type),
    isExternal: api.eventType === "externalContent",
    teams,
    posterUrl: api.content.PosterH ?? null,
    league: league ? mapIdentity(league) : null,
    category: category ? mapIdentity(category) : null,
    metaTitle: options.leaguesView && teams ? metaTitleOf(api, league, category) : null,
    gender: options.genderClassification ? (api.gender ?? null) : null,
    commerceType: api.commerce_type,
    monetisation: [...api.commerceType],
    commerceCoverage: [...(api.commerceCoverage ?? [])],
    // A viewer's own clips are always theirs to watch (spec §3).
    isAvailableForUser: isUserClip || api.availableForUser,
    isAvailableInUserRegion: api.availableInUserRegion,
    durationSeconds: api.duration ?? null,
    statsEnabled: api.integrations.vidswap.enabled,
    epgUrl: api.content.EPG ?? null,
    streamUrl: api.content.HLSStream ?? null,
    panoStreamUrl: api.content.PanoStream ?? null,
    vastUrl: api.advertisements.link.vast ?? null,
  };
}

/** The server's metaTitle when it sent one, else 'league•category' from the event's identities. */
function metaTitleOf(
  api: ApiEvent,
  league: components["schemas"]["IdentityRef"] | undefined,
  category: components["schemas"]["IdentityRef"] | undefined,
): string | null {
  if (api.metaTitle) return api.metaTitle;
  if (!league || !category) return league?.title ?? category?.title ?? null;
  return `${league.title}•${category.title}`;
}

export function mapEvents(entries: readonly ApiEvent[], options?: EventMapOptions): CatalogEvent[] {
  return entries.map((entry) => mapEvent(entry, options));
}

/**
 * Where a card leads: the event page, or a channel's own page. Highlights and clips open the
 * event page with their media type, which tells it to ask GET /clip/get_by_id (spec §7).
 */
export function eventPath(event: Pick<CatalogEvent, "id" | "mediaType" | "isChannel">): string {
  // A channel's page is its programme guide: the event page has nothing to play for it.
  if (event.isChannel) return `/channels/${encodeURIComponent(event.id)}`;
  const path = `/events/${encodeURIComponent(event.id)}`;
  return isClipMediaType(event.mediaType) ? `${path}?media_type=${event.mediaType}` : path;
}

/** The event as the event page uses it (spec §3 "Event as used by the event page"). */
export interface EventPageModel {
  id: string;
  eventId: string;
  referenceId: string;
  eventType: string;
  eventStatus: EventStatus;
  commerceCoverage: CommerceCoverage[];
  isEventAvailableForUser: boolean;
  isEventAvailableInUserRegion: boolean;
  isEnabledVidswapStats: boolean;
  source: { epg: string | null; hd: string | null };
}

export function toEventPageModel(event: CatalogEvent): EventPageModel {
  return {
    id: event.id,
    eventId: event.eventId,
    referenceId: event.referenceId,
    eventType: event.eventType,
    eventStatus: event.status,
    commerceCoverage: event.commerceCoverage,
    isEventAvailableForUser: event.isAvailableForUser,
    isEventAvailableInUserRegion: event.isAvailableInUserRegion,
    isEnabledVidswapStats: event.statsEnabled,
    source: { epg: event.epgUrl, hd: event.streamUrl },
  };
}

/** What stands between the viewer and the video, for cards and the event page. */
export type Access =
  | { kind: "available" }
  | { kind: "region" }
  | { kind: "locked"; via: "ppv" | "subscription" | "members" | "channel" | "purchase" };

export function accessOf(
  event: Pick<CatalogEvent, "isAvailableForUser" | "isAvailableInUserRegion" | "commerceCoverage" | "monetisation">,
): Access {
  if (event.isAvailableForUser) return { kind: "available" };
  if (!event.isAvailableInUserRegion) return { kind: "region" };
  const coverage = event.commerceCoverage;
  if (coverage.includes("members") && coverage.length === 1) return { kind: "locked", via: "members" };
  if (coverage.includes("ppv") || event.monetisation.includes("ppv")) return { kind: "locked", via: "ppv" };
  if (coverage.includes("subscription") || event.monetisation.includes("svod"))
    return { kind: "locked", via: "subscription" };
  if (coverage.includes("channel") || event.monetisation.includes("cvod")) return { kind: "locked", via: "channel" };
  return { kind: "locked", via: "purchase" };
}
