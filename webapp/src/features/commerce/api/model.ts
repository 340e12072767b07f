import type { components } from "@/api/schema.gen";
import { mapProduct, type Product } from "@/entities/product";

export type ApiContract = components["schemas"]["Contract"];
export type CardSummary = components["schemas"]["CardSummary"];
export type StoredCard = components["schemas"]["StoredCard"];

/** A subscription contract (svod, cvod or bundle) as the pages use it. */
export interface Contract {
  id: string;
  platform: ApiContract["platform"];
  status: ApiContract["status"];
  paymentStatus: ApiContract["paymentStatus"];
  active: boolean;
  canceled: boolean;
  renewable: boolean;
  autoRenew: boolean;
  title: string;
  type: ApiContract["type"];
  price: number;
  currency: string;
  startDate: Date | null;
  endDate: Date | null;
  nextBillingDate: Date | null;
  canceledAt: Date | null;
  card: CardSummary | null;
  product: Product;
  updated: Date | null;
}

const date = (value: string | null | undefined) => (value ? new Date(value) : null);

export function mapContract(api: ApiContract): Contract {
  const product = mapProduct(api.originalProduct);
  return {
    id: api.id,
    platform: api.platform,
    status: api.status,
    paymentStatus: api.paymentStatus,
    active: api.active,
    canceled: api.canceled,
    renewable: api.renewable,
    autoRenew: api.autoRenew,
    title: api.title || product.title,
    type: api.type,
    price: api.price,
    currency: api.currency && api.currency.trim() ? api.currency : "N/A",
    startDate: date(api.startDate),
    endDate: date(api.contractEndDate),
    nextBillingDate: date(api.nextBillingDate),
    canceledAt: date(api.canceledAt),
    card: api.card && "last4" in api.card ? api.card : null,
    product,
    updated: date(api.updated),
  };
}
