import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapProduct } from "@/entities/product";
import { mapContract } from "./model";

export const contractsKey = ["commerce", "contracts"] as const;

/** Subscriptions (svod, cvod) and renewable bundles on sale, cheapest first. */
export function useSubscriptionProducts() {
  return useQuery({
    queryKey: ["commerce", "subscription-products"],
    queryFn: async ({ signal }) => {
      const answer = await unwrap(
        api.GET("/commerce/get_subscriptions", { params: { query: { type: "svod|cvod", size: 100 } }, signal }),
      );
      return answer.content.entries.map(mapProduct);
    },
  });
}

export function useSubscriptionProduct(id: string) {
  return useQuery({
    queryKey: ["commerce", "subscription-products", id],
    queryFn: async ({ signal }) =>
      mapProduct(
        (await unwrap(api.GET("/commerce/get_subscriptions_by_id/id/{id}", { params: { path: { id } }, signal })))
          .content,
      ),
  });
}

export function useContracts() {
  return useQuery({
    queryKey: [...contractsKey, "list"],
    queryFn: async ({ signal }) => {
      const answer = await unwrap(
        api.GET("/commerce/customer_contracts", { params: { query: { size: 100 } }, signal }),
      );
      return answer.content.entries.map(mapContract);
    },
  });
}

export async function fetchContract(id: string, signal?: AbortSignal) {
  const answer = await unwrap(
    api.GET("/commerce/get_customer_subscriptions_by_id/id/{id}", { params: { path: { id } }, signal }),
  );
  return mapContract(answer.content);
}

export function useContract(id: string) {
  return useQuery({ queryKey: [...contractsKey, id], queryFn: ({ signal }) => fetchContract(id, signal) });
}

export function useCancelContract() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      mapContract((await unwrap(api.POST("/commerce/cancel_contract", { body: { platform: "web", id } }))).content),
    onSuccess: () => client.invalidateQueries({ queryKey: contractsKey }),
  });
}
