import type { QueryClient } from "@tanstack/react-query";
import type { AppConfig } from "@/lib/config";
import { eventListQueryOptions, type EventListParams } from "./api/listEvents";
import { clipListQueryOptions, type ClipListParams } from "@/session/catalog/listClips";
import { identityListQueryOptions, type IdentityListParams } from "./api/listIdentities";
import { eventMapOptionsOf, type Audience } from "@/session/catalog/viewer";
import { CHANNELS, HIGHLIGHTS, LATEST_VIDEOS, LIVE_EVENTS, UPCOMING_EVENTS } from "./lib/lists";

/** What the home page's rails ask for; the page and the prefetch below share it. */
export const RAIL_SIZE = 12;
export const HOME_RAILS = {
  live: { ...LIVE_EVENTS, size: RAIL_SIZE },
  upcoming: { ...UPCOMING_EVENTS, size: RAIL_SIZE },
  latest: { ...LATEST_VIDEOS, size: RAIL_SIZE },
  channels: { ...CHANNELS, size: RAIL_SIZE },
} satisfies Record<string, EventListParams>;
export const HOME_HIGHLIGHTS: ClipListParams = { ...HIGHLIGHTS, size: RAIL_SIZE };
export const HOME_LEAGUES: IdentityListParams = { mediaType: "identity_item" };

/**
 * Starts the home page's requests from the route's loader, while the page's code is still
 * downloading, instead of after it has rendered: one round trip less before the first posters.
 * Settles once every rail's answer (or failure) is in the cache.
 */
export async function prefetchHomeRails(
  queryClient: QueryClient,
  config: AppConfig,
  audience: Audience,
): Promise<void> {
  const eventOptions = eventMapOptionsOf(config);
  await Promise.all([
    ...Object.values(HOME_RAILS).map((params) =>
      queryClient.prefetchQuery(eventListQueryOptions(params, audience, eventOptions)),
    ),
    queryClient.prefetchQuery(clipListQueryOptions(HOME_HIGHLIGHTS, audience, eventOptions)),
    queryClient.prefetchQuery(
      identityListQueryOptions(HOME_LEAGUES, { teamsShortName: config.options.teams_short_name }),
    ),
  ]);
}
