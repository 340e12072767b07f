import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { components } from "@/api/schema.gen";
import { mapIdentity, type Identity, type IdentityMapOptions } from "@/entities/identity";
import { toPage, type Page } from "@/api/page";
import { useIdentityMapOptions } from "@/session/catalog/viewer";

type IdentityListRequest = components["schemas"]["IdentityListRequest"];

export interface IdentityListParams {
  mediaType: "identity" | "identity_item" | "team";
  /** Children of this parent only, in the order the parent arranges them. */
  parentId?: string;
  size?: number;
}

/** Spec §7/§9: sub-category lists are fetched with page 0, size 100; categories with 50. */
export const SUB_CATEGORY_PAGE_SIZE = 100;
export const CATEGORY_PAGE_SIZE = 50;

export async function fetchIdentities(
  params: IdentityListParams,
  options: IdentityMapOptions,
  signal?: AbortSignal,
): Promise<Page<Identity>> {
  const body: IdentityListRequest = {
    page: 0,
    size: params.size ?? (params.parentId ? SUB_CATEGORY_PAGE_SIZE : CATEGORY_PAGE_SIZE),
    sort: params.parentId ? `media_parent_order.${params.parentId}` : "order",
    order: "asc",
    next: true,
    count: false,
    filters: { media_type: params.mediaType, identityId: params.parentId, archived: false },
  };
  const answer = await unwrap(api.POST("/identity/list", { body, signal }));
  return toPage(0, answer.content, (entry) => mapIdentity(entry, options));
}

export function identityListQueryOptions(params: IdentityListParams, options: IdentityMapOptions) {
  return queryOptions({
    queryKey: ["catalog", "identities", params, options],
    queryFn: ({ signal }) => fetchIdentities(params, options, signal),
  });
}

/** Main categories, leagues (sub-categories) or teams, optionally the children of one parent. */
export function useIdentityList(params: IdentityListParams) {
  return useQuery(identityListQueryOptions(params, useIdentityMapOptions()));
}
