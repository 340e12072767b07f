import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapFollowEntries, type FollowedItem, type FollowedMapOptions } from "@/entities/followed";
import { useAppConfig } from "@/lib/config";
import { sessionStore, useSession, followedItems } from "@/session/store";
import { toggleFollowKey } from "@/ui/follow/useToggleFollow";

/** Spec §7/§9: the follow list is asked for with size 150, version 2. */
export const FOLLOW_LIST_SIZE = 150;

/** Also made stale by every follow and unfollow (src/ui/follow/useToggleFollow.ts). */
export const followListKey = ["following", "list"] as const;

/**
 * Everything the viewer follows, fetched again; the answer replaces the session's `followed` map
 * (spec §3, persisted under ott-data), which every page reads.
 */
export async function fetchFollowList(
  options: FollowedMapOptions,
  signal?: AbortSignal,
  isChanging: () => boolean = () => false,
): Promise<Record<string, FollowedItem>> {
  const userId = sessionStore.getState().user?.id;
  const answer = await unwrap(
    api.GET("/follow/list_by_user", { params: { query: { size: FOLLOW_LIST_SIZE, version: 2 } }, signal }),
  );
  const followed = mapFollowEntries(answer.content.entries, options);
  // Dropped when it belongs to a viewer who signed out (or switched) meanwhile, or when a follow
  // or unfollow is on its way: the answer may predate it and would undo the optimistic change.
  if (sessionStore.getState().user?.id === userId && !isChanging()) sessionStore.setState({ followed });
  return followed;
}

export function followListQueryOptions(options: FollowedMapOptions) {
  return queryOptions({
    queryKey: [...followListKey, options],
    queryFn: ({ signal, client }) =>
      fetchFollowList(options, signal, () => client.isMutating({ mutationKey: toggleFollowKey }) > 0),
  });
}

/** Refreshes the followed items (into the query cache and the session) while a page shows them. */
export function useFollowListRefresh(enabled = true) {
  const teamsShortName = useAppConfig().options.teams_short_name;
  return useQuery({ ...followListQueryOptions({ teamsShortName }), enabled });
}

/** The followed items as the session has them (loaded at start-up, changed by follow and unfollow). */
export function useFollowedItems(): FollowedItem[] {
  return useSession(followedItems);
}

export function useFollowedMap(): Record<string, FollowedItem> {
  return useSession((state) => state.followed);
}
