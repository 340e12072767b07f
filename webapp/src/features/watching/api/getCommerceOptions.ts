import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapCommerceOptions, type CommerceOptions } from "@/entities/product";
import { useAudience, type Audience } from "@/session/catalog/viewer";

export async function fetchCommerceOptions(eventId: string, signal?: AbortSignal): Promise<CommerceOptions> {
  const answer = await unwrap(api.GET("/event/get_commerce_options", { params: { query: { eventId } }, signal }));
  return mapCommerceOptions(answer.content);
}

export function commerceOptionsQueryOptions(eventId: string, audience: Audience) {
  return queryOptions({
    queryKey: ["catalog", "commerce-options", eventId, audience],
    queryFn: ({ signal }) => fetchCommerceOptions(eventId, signal),
  });
}

/** The products that unlock an event, with whether the viewer already holds them. */
export function useCommerceOptions(eventId: string, enabled = true) {
  return useQuery({ ...commerceOptionsQueryOptions(eventId, useAudience()), enabled });
}
