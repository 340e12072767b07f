import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapCommerceOptions, mapPurchase } from "@/entities/product";

export const purchasesKey = ["commerce", "purchases"] as const;

export function usePurchases(page = 0) {
  return useQuery({
    queryKey: [...purchasesKey, "list", page],
    queryFn: async ({ signal }) => {
      const answer = await unwrap(
        api.GET("/commerce/ppv/purchases", { params: { query: { page, size: 20, next: true } }, signal }),
      );
      return { entries: answer.content.entries.map(mapPurchase), nextExists: Boolean(answer.content.nextExists) };
    },
  });
}

export async function fetchPurchase(id: string, signal?: AbortSignal) {
  const answer = await unwrap(api.GET("/commerce/ppv/purchases/id/{id}", { params: { path: { id } }, signal }));
  return { purchase: mapPurchase(answer.content), eventId: answer.content.event_id ?? null };
}

export function usePurchase(id: string) {
  return useQuery({ queryKey: [...purchasesKey, id], queryFn: ({ signal }) => fetchPurchase(id, signal) });
}

/** What unlocks an event, with the viewer's state: the pay-per-view page's product. */
export function useEventProducts(eventId: string) {
  return useQuery({
    queryKey: ["commerce", "event-products", eventId],
    queryFn: async ({ signal }) =>
      mapCommerceOptions(
        (await unwrap(api.GET("/event/get_commerce_options", { params: { query: { eventId } }, signal }))).content,
      ),
  });
}
