import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { components } from "@/api/schema.gen";
import { mapFollowedItem, type FollowedItem, type FollowedMapOptions } from "@/entities/followed";
import { useAppConfig } from "@/lib/config";

type IdentityListRequest = components["schemas"]["IdentityListRequest"];

/** What can be followed on a page: categories, leagues (of one category or all), a league's teams. */
export interface CandidateParams {
  mediaType: "identity" | "identity_item" | "team";
  parentId?: string;
}

/** Spec §9: categories are listed 50 at a time, sub-categories (and a league's teams) 100. */
export const CATEGORY_SIZE = 50;
export const CHILDREN_SIZE = 100;

export async function fetchCandidates(
  params: CandidateParams,
  options: FollowedMapOptions,
  signal?: AbortSignal,
): Promise<FollowedItem[]> {
  const body: IdentityListRequest = {
    page: 0,
    size: params.mediaType === "identity" ? CATEGORY_SIZE : CHILDREN_SIZE,
    sort: params.parentId ? `media_parent_order.${params.parentId}` : "order",
    order: "asc",
    next: false,
    count: false,
    filters: { media_type: params.mediaType, identityId: params.parentId, archived: false },
  };
  const answer = await unwrap(api.POST("/identity/list", { body, signal }));
  return answer.content.entries.map((entry) => mapFollowedItem(entry, params.mediaType, options));
}

export function candidatesQueryOptions(params: CandidateParams, options: FollowedMapOptions) {
  return queryOptions({
    queryKey: ["following", "candidates", params, options],
    queryFn: ({ signal }) => fetchCandidates(params, options, signal),
  });
}

export function useCandidates(params: CandidateParams) {
  const teamsShortName = useAppConfig().options.teams_short_name;
  return useQuery(candidatesQueryOptions(params, { teamsShortName }));
}

/** One category or league (for the page's heading). */
export function useIdentityTitle(id: string | undefined) {
  const teamsShortName = useAppConfig().options.teams_short_name;
  return useQuery({
    queryKey: ["following", "identity", id, teamsShortName],
    enabled: !!id,
    queryFn: async ({ signal }) => {
      const answer = await unwrap(
        api.GET("/identity/get_by_id/id/{id}", { params: { path: { id: id ?? "" } }, signal }),
      );
      return mapFollowedItem(answer.content, answer.content.media_type, { teamsShortName });
    },
  });
}
