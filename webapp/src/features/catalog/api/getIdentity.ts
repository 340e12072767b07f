import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapIdentity, type Identity, type IdentityMapOptions } from "@/entities/identity";
import { useIdentityMapOptions } from "@/session/catalog/viewer";

export async function fetchIdentity(id: string, options: IdentityMapOptions, signal?: AbortSignal): Promise<Identity> {
  const answer = await unwrap(api.GET("/identity/get_by_id/id/{id}", { params: { path: { id } }, signal }));
  return mapIdentity(answer.content, options);
}

export function identityQueryOptions(id: string, options: IdentityMapOptions) {
  return queryOptions({
    queryKey: ["catalog", "identity", id, options],
    queryFn: ({ signal }) => fetchIdentity(id, options, signal),
  });
}

/** One category, league or team; a 404 is an ApiError with status 404. */
export function useIdentity(id: string) {
  return useQuery(identityQueryOptions(id, useIdentityMapOptions()));
}
