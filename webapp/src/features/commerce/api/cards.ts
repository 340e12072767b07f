import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { StoredCard } from "./model";

export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  holder?: string;
}

/** The only call that ever carries card details: they become a single-use token. */
export async function tokenizeCard(card: CardDetails): Promise<{ token: string; last4: string; brand: string }> {
  const answer = await unwrap(
    api.POST("/commerce/card/tokenize", {
      body: {
        number: card.number,
        exp_month: card.expMonth,
        exp_year: card.expYear,
        cvc: card.cvc,
        ...(card.holder && { holder: card.holder }),
      },
    }),
  );
  return answer.content;
}

export const storedCardKey = ["commerce", "stored-card"] as const;

export function useStoredCard(enabled = true) {
  return useQuery({
    queryKey: storedCardKey,
    queryFn: async ({ signal }) => {
      const answer = await unwrap(api.GET("/commerce/card", { signal }));
      const card = answer.content as StoredCard | null;
      return card && "last4" in card ? card : null;
    },
    enabled,
  });
}

export function useReplaceCard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (card: CardDetails) => {
      const { token } = await tokenizeCard(card);
      const answer = await unwrap(api.POST("/commerce/card/update", { body: { card: { token } } }));
      return answer.content as StoredCard;
    },
    onSuccess: (card) => client.setQueryData(storedCardKey, card),
  });
}

export function useRemoveCard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST("/commerce/card/delete")),
    onSuccess: () => client.setQueryData(storedCardKey, null),
  });
}
