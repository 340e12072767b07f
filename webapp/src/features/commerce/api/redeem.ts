import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapProduct } from "@/entities/product";

/** Redeems an access code; afterwards everything the viewer holds may have changed. */
export function useRedeemCode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (code: string) => {
      const answer = await unwrap(api.POST("/commerce/access_code/redeem", { body: { code } }));
      const { product, purchase, contract } = answer.content;
      return {
        product: mapProduct(product),
        purchaseId: purchase && "_id" in purchase ? purchase._id : null,
        contractId: contract && "id" in contract ? contract.id : null,
      };
    },
    onSuccess: () => client.invalidateQueries(),
  });
}
