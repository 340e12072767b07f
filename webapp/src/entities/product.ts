import type { components } from "@/api/schema.gen";
import { NO_TITLE } from "./event";

/** Something the viewer can buy, as the API sends it. */
export type ApiProduct = components["schemas"]["Product"];
export type ApiPurchase = components["schemas"]["Purchase"];
export type ApiCommerceOptions = components["schemas"]["CommerceOptionsResponse"]["content"];
export type ProductType = components["schemas"]["ProductType"];
export type DurationUnit = NonNullable<ApiProduct["durationUnits"]>;

/** Currency when a product has none (spec §3). */
export const NO_CURRENCY = "N/A";

export interface ProductRef {
  id: string;
  title: string;
  type: ProductType;
  eventId: string | null;
}

/** A product as the UI uses it (spec §3 "Product/purchase"). */
export interface Product {
  id: string;
  title: string;
  description: string | null;
  /** The description in other locales, by locale; `description` is the default language's. */
  descriptions: Readonly<Record<string, string>>;
  type: ProductType;
  eventId: string | null;
  /** Major units, for display. */
  price: number;
  currency: string;
  active: boolean;
  canceled: boolean;
  purchaseProcessing: boolean;
  renewable: boolean;
  availableInUserRegion: boolean;
  offerStartDate: Date | null;
  /** For svod and cvod the contract's end date, for the others the end of the offer. */
  offerEndDate: Date | null;
  updated: Date | null;
  duration: number | null;
  durationUnits: DurationUnit | null;
  allowedAccessIdentityItems: string[];
  /** Bundles only. */
  bundle: {
    originalProductId: string | null;
    startDate: Date | null;
    endDate: Date | null;
    autoRenew: boolean;
    items: ProductRef[];
  } | null;
}

/** A pay-per-view purchase wrapping the product it bought. */
export interface Purchase {
  id: string;
  title: string;
  status: ApiPurchase["status"];
  paymentAction: ApiPurchase["paymentAction"];
  purchaseProcessing: boolean;
  price: number;
  currency: string;
  validUntil: Date | null;
  errorCode: string | null;
  added: Date | null;
  originalProduct: Product;
}

function parseDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function currencyOf(value: string | null | undefined): string {
  return value && value.trim() ? value : NO_CURRENCY;
}

const CONTRACT_TYPES: readonly ProductType[] = ["svod", "cvod"];

/** A product's description in the viewer's language, else the default one (null: none). */
export function productDescription(
  product: Pick<Product, "description" | "descriptions">,
  locale: string,
): string | null {
  return product.descriptions[locale] || product.description;
}

/** The one API → UI mapping of products. */
export function mapProduct(api: ApiProduct): Product {
  const isContract = CONTRACT_TYPES.includes(api.type);
  return {
    id: api._id,
    title: api.title || NO_TITLE,
    description: api.description || null,
    descriptions: api.descriptions ?? {},
    type: api.type,
    eventId: api.event_id ?? null,
    price: api.price,
    currency: currencyOf(api.currency),
    active: api.active,
    canceled: api.canceled,
    purchaseProcessing: api.purchaseProcessing,
    renewable: api.renewable,
    availableInUserRegion: api.availableInUserRegion,
    offerStartDate: parseDate(api.offerStartDate),
    offerEndDate: parseDate(isContract ? api.contractEndDate : api.offerEndDate),
    updated: parseDate(api.updated),
    duration: api.duration ?? null,
    durationUnits: api.durationUnits ?? null,
    allowedAccessIdentityItems: [...api.allowedAccessIdentityItems],
    bundle:
      api.type === "bundle"
        ? {
            originalProductId: api.originalProductId ?? null,
            startDate: parseDate(api.startDate),
            endDate: parseDate(api.endDate),
            autoRenew: api.autoRenew ?? false,
            items: (api.items ?? []).map((item) => ({
              id: item._id,
              title: item.title || NO_TITLE,
              type: item.type,
              eventId: item.event_id ?? null,
            })),
          }
        : null,
  };
}

export function mapPurchase(api: ApiPurchase): Purchase {
  return {
    id: api._id,
    title: api.title || NO_TITLE,
    status: api.status,
    paymentAction: api.paymentAction,
    purchaseProcessing: api.purchaseProcessing,
    price: api.price,
    currency: currencyOf(api.currency),
    validUntil: parseDate(api.validUntil),
    errorCode: api.errorCode ?? null,
    added: parseDate(api.added),
    originalProduct: mapProduct(api.originalProduct),
  };
}

/** What unlocks an event and whether the viewer already may watch it. */
export interface CommerceOptions {
  eventId: string;
  availableForUser: boolean;
  availableInUserRegion: boolean;
  commerceCoverage: ApiCommerceOptions["commerceCoverage"];
  /** Cheapest first, as the server orders them. */
  products: Product[];
}

export function mapCommerceOptions(api: ApiCommerceOptions): CommerceOptions {
  return {
    eventId: api.eventId,
    availableForUser: api.availableForUser,
    availableInUserRegion: api.availableInUserRegion,
    commerceCoverage: [...api.commerceCoverage],
    products: api.products.map(mapProduct),
  };
}

/** "€4.99" in the viewer's locale; a product without currency shows the bare amount. */
export function formatPrice(product: Pick<Product, "price" | "currency">, locale: string): string {
  if (product.currency === NO_CURRENCY)
    return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(product.price);
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency: product.currency }).format(product.price);
  } catch {
    return `${product.price.toFixed(2)} ${product.currency}`; // an ISO code Intl does not know
  }
}
