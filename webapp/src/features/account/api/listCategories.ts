import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { components } from "@/api/schema.gen";
import { mapIdentity } from "@/entities/identity";

type IdentityListRequest = components["schemas"]["IdentityListRequest"];

/** A category the profile may name as the viewer's favourite (identity, identityItem). */
export interface CategoryChoice {
  id: string;
  title: string;
}

/** Spec §9: main categories are listed 50 at a time, sub-categories page 0, size 100. */
const MAIN_SIZE = 50;
const SUB_SIZE = 100;

/**
 * POST /identity/list: the main categories, or the sub-categories of one, in the order the
 * catalogue arranges them, without archived ones.
 */
export async function fetchCategoryChoices(parentId: string | null, signal?: AbortSignal): Promise<CategoryChoice[]> {
  const body: IdentityListRequest = {
    page: 0,
    size: parentId ? SUB_SIZE : MAIN_SIZE,
    sort: parentId ? `media_parent_order.${parentId}` : "order",
    order: "asc",
    next: true,
    count: false,
    filters: parentId
      ? { media_type: "identity_item", identityId: parentId, archived: false }
      : { media_type: "identity", archived: false },
  };
  const answer = await unwrap(api.POST("/identity/list", { body, signal }));
  return answer.content.entries.map((entry) => {
    const identity = mapIdentity(entry);
    return { id: identity.id, title: identity.title };
  });
}

export function categoryChoicesQueryOptions(parentId: string | null) {
  return queryOptions({
    queryKey: ["account", "categories", parentId ?? "main"],
    queryFn: ({ signal }) => fetchCategoryChoices(parentId, signal),
    staleTime: 5 * 60_000,
  });
}

/** The main categories (parentId null) or one's sub-categories; nothing is fetched while disabled. */
export function useCategoryChoices(parentId: string | null, enabled = true) {
  return useQuery({ ...categoryChoicesQueryOptions(parentId), enabled });
}
