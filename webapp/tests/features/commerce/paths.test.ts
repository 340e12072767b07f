import { describe, expect, it } from "vitest";
import { boughtPath, paymentPath, readPaymentRef, safeReturnPath } from "@/features/commerce/lib/paths";

describe("the payment pages' addresses", () => {
  it("keep only return paths of this site, without locale prefix", () => {
    expect(safeReturnPath("/events/e1")).toBe("/events/e1");
    expect(safeReturnPath("/de/events/e1?x=1")).toBe("/events/e1?x=1");
    expect(safeReturnPath("https://evil.test/")).toBeNull();
    expect(safeReturnPath("//evil.test/")).toBeNull();
    expect(safeReturnPath("/\\evil.test")).toBeNull();
    expect(safeReturnPath(null)).toBeNull();
  });

  it("carry what was bought through processing to success or failure", () => {
    const path = paymentPath("processing", {
      record: "purchase",
      id: "p1",
      eventId: "e1",
      productId: "x1",
      redirect: "/events/e1",
    });
    expect(path).toBe("/payment/processing?record=purchase&id=p1&event=e1&product=x1&redirect=%2Fevents%2Fe1");
    const ref = readPaymentRef(new URL(path, "http://localhost").searchParams);
    expect(ref).toMatchObject({ record: "purchase", id: "p1", eventId: "e1", productId: "x1", redirect: "/events/e1" });
  });

  it("lead back to what was bought: the return path, the match, or the subscription", () => {
    expect(boughtPath({ record: "purchase", eventId: "e1", redirect: "/live" })).toBe("/live");
    expect(boughtPath({ record: "purchase", eventId: "e1" })).toBe("/events/e1");
    expect(boughtPath({ record: "contract", id: "c1" })).toBe("/account/subscription/c1");
    expect(boughtPath({ record: "contract" })).toBe("/account/subscription");
  });
});
