// @vitest-environment node
import { describe, expect, it } from "vitest";
import type { components } from "@/api/schema.gen";
import { formatPrice, mapCommerceOptions, mapProduct, mapPurchase, productDescription } from "@/entities/product";

type ApiProduct = components["schemas"]["Product"];

function apiProduct(overrides: Partial<ApiProduct> = {}): ApiProduct {
  return {
    _id: "b34b962232797af6acbde1c8",
    title: "Hockey Night Channel",
    description: "Around the clock.",
    type: "ppv",
    event_id: "7b9e8f8901384191e3ced77b",
    price: 4.99,
    priceMinor: 499,
    currency: "EUR",
    active: false,
    canceled: false,
    purchaseProcessing: false,
    renewable: false,
    availableInUserRegion: true,
    offerStartDate: "2026-11-01T00:00:00Z",
    offerEndDate: "2026-12-01T00:00:00Z",
    contractEndDate: "2027-01-01T00:00:00Z",
    duration: 1,
    durationUnits: "months",
    allowedAccessIdentityItems: ["489b5dda00c1086d92699a3a"],
    updated: "2026-10-24T16:21:41Z",
    ...overrides,
  };
}

describe("mapProduct", () => {
  it("renames the API fields and parses dates", () => {
    expect(mapProduct(apiProduct())).toMatchObject({
      id: "b34b962232797af6acbde1c8",
      eventId: "7b9e8f8901384191e3ced77b",
      price: 4.99,
      currency: "EUR",
      offerStartDate: new Date("2026-11-01T00:00:00Z"),
      offerEndDate: new Date("2026-12-01T00:00:00Z"),
      allowedAccessIdentityItems: ["489b5dda00c1086d92699a3a"],
      bundle: null,
    });
  });

  it("uses the contract end date as the offer end for svod and cvod", () => {
    expect(mapProduct(apiProduct({ type: "svod" })).offerEndDate).toEqual(new Date("2027-01-01T00:00:00Z"));
    expect(mapProduct(apiProduct({ type: "cvod" })).offerEndDate).toEqual(new Date("2027-01-01T00:00:00Z"));
  });

  it("defaults a missing currency to 'N/A'", () => {
    expect(mapProduct(apiProduct({ currency: "" })).currency).toBe("N/A");
  });

  it("keeps what a bundle contains", () => {
    const bundle = mapProduct(
      apiProduct({
        type: "bundle",
        originalProductId: null,
        startDate: null,
        endDate: "2027-02-01T00:00:00Z",
        autoRenew: true,
        items: [{ _id: "f06dd9d1114e3c5061346e52", title: "All Access", type: "svod", event_id: null }],
      }),
    );
    expect(bundle.bundle).toEqual({
      originalProductId: null,
      startDate: null,
      endDate: new Date("2027-02-01T00:00:00Z"),
      autoRenew: true,
      items: [{ id: "f06dd9d1114e3c5061346e52", title: "All Access", type: "svod", eventId: null }],
    });
  });
});

describe("productDescription", () => {
  it("is the viewer's language's text when the product has one, else the default text", () => {
    const product = mapProduct(apiProduct({ descriptions: { de: "Rund um die Uhr." } }));
    expect(productDescription(product, "de")).toBe("Rund um die Uhr.");
    expect(productDescription(product, "fr")).toBe("Around the clock.");
    expect(productDescription(mapProduct(apiProduct()), "de")).toBe("Around the clock.");
    expect(productDescription(mapProduct(apiProduct({ description: null })), "de")).toBeNull();
  });
});

describe("mapPurchase", () => {
  it("wraps the product it bought", () => {
    const purchase = mapPurchase({
      _id: "0123456789abcdef01234567",
      title: "Final",
      description: null,
      type: "ppv",
      event_id: null,
      status: "success",
      paymentAction: "redeemAccessCode",
      purchaseProcessing: false,
      price: 4.99,
      priceMinor: 499,
      currency: "EUR",
      card: null,
      accessCode: "CODE",
      errorCode: null,
      validUntil: "2026-12-01T00:00:00Z",
      added: "2026-11-01T00:00:00Z",
      updated: "2026-11-01T00:00:00Z",
      originalProduct: apiProduct(),
    });
    expect(purchase.originalProduct.id).toBe("b34b962232797af6acbde1c8");
    expect(purchase.validUntil).toEqual(new Date("2026-12-01T00:00:00Z"));
  });
});

describe("mapCommerceOptions", () => {
  it("maps availability and the products that unlock the event", () => {
    const options = mapCommerceOptions({
      eventId: "7b9e8f8901384191e3ced77b",
      availableForUser: false,
      availableInUserRegion: true,
      commerceCoverage: ["ppv"],
      products: [apiProduct()],
    });
    expect(options.products.map((p) => p.id)).toEqual(["b34b962232797af6acbde1c8"]);
    expect(options.availableForUser).toBe(false);
  });
});

describe("formatPrice", () => {
  it("formats in the viewer's locale, and shows a bare amount without currency", () => {
    expect(formatPrice({ price: 4.99, currency: "EUR" }, "en")).toBe("€4.99");
    expect(formatPrice({ price: 4.99, currency: "EUR" }, "de").replace(/\s/g, " ")).toBe("4,99 €");
    expect(formatPrice({ price: 0, currency: "N/A" }, "en")).toBe("0.00");
  });
});
