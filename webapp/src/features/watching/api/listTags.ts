import { queryOptions, useQueries, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapTag, timelineOrder, type TimelineTag } from "@/entities/tag";

/** Spec §9: the tag list loads 999 tags at once. */
export const TAG_LIST_SIZE = 999;

/** Whose tags a list holds: the ones everyone sees, or the viewer's private ones. */
export type TagScope = "global" | "own";

export async function fetchTags(targetId: string, scope: TagScope, signal?: AbortSignal): Promise<TimelineTag[]> {
  const answer = await unwrap(
    api.POST("/tag/list", {
      body: { targetId, global: scope === "global", page: 0, size: TAG_LIST_SIZE, next: false, count: false },
      signal,
    }),
  );
  return answer.content.entries.map(mapTag);
}

/** Every tag list of one event or clip starts with this key (mutations invalidate it). */
export const tagsKey = (targetId: string) => ["catalog", "tags", targetId] as const;

export function tagListQueryOptions(targetId: string, scope: TagScope) {
  return queryOptions({
    queryKey: [...tagsKey(targetId), scope],
    queryFn: ({ signal }) => fetchTags(targetId, scope, signal),
  });
}

export interface TimelineTags {
  /** Global and own tags together, in timeline order. */
  tags: TimelineTag[];
  isPending: boolean;
  /** The first failure of either list (spec §8: shown as a message). */
  error: unknown;
  refetch: () => void;
}

/**
 * The timeline tags of an event or clip: the global ones and the viewer's own (spec §6: only for
 * signed-in viewers; channels have none). A list that fails leaves the other one standing.
 */
export function useTags(targetId: string, enabled: boolean): TimelineTags {
  return useQueries({
    queries: (["global", "own"] as const).map((scope) => ({ ...tagListQueryOptions(targetId, scope), enabled })),
    combine: combineTags,
  });
}

// Outside the hook: the combined result is only rebuilt when one of the lists changes.
function combineTags(results: UseQueryResult<TimelineTag[]>[]): TimelineTags {
  return {
    tags: timelineOrder(results.flatMap((result) => result.data ?? [])),
    isPending: results.some((result) => result.isLoading),
    error: results.find((result) => result.error)?.error ?? null,
    refetch: () => results.forEach((result) => void result.refetch()),
  };
}
