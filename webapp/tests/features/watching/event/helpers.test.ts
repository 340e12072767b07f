// @vitest-environment node
import { describe, expect, it } from "vitest";
import type { Product } from "@/entities/product";
import { formatTimeLeft, timeLeft } from "@/features/watching/event/countdown";
import { forViewer, offeredProducts, purchasePath, redeemCodePath } from "@/features/watching/event/purchaseLinks";
import { parseStartAt, shareUrl } from "@/features/watching/event/share";

describe("share links", () => {
  it.each([
    ["754", 754],
    ["754s", 754],
    ["12m34s", 754],
    ["1h2m3s", 3723],
    ["1h", 3600],
    ["90.5", 90.5],
  ])("reads t=%s as %s seconds", (raw, seconds) => {
    expect(parseStartAt(raw)).toBe(seconds);
  });

  it.each([null, "", "soon", "-5", "12:34", "m"])("ignores t=%s", (raw) => {
    expect(parseStartAt(raw)).toBeNull();
  });

  it("writes the time in whole seconds, replacing any earlier one and keeping the rest of the query", () => {
    expect(shareUrl("https://tv.example", "/events/e1", "?media_type=highlight&t=5", 754.8)).toBe(
      "https://tv.example/events/e1?media_type=highlight&t=754",
    );
    expect(shareUrl("https://tv.example", "/de/events/e1", "?t=5", null)).toBe("https://tv.example/de/events/e1");
  });
});

const product = (patch: Partial<Product>): Product => ({
  id: "p",
  title: "Product",
  description: null,
  descriptions: {},
  type: "ppv",
  eventId: null,
  price: 9.99,
  currency: "EUR",
  active: false,
  canceled: false,
  purchaseProcessing: false,
  renewable: false,
  availableInUserRegion: true,
  offerStartDate: null,
  offerEndDate: null,
  updated: null,
  duration: null,
  durationUnits: null,
  allowedAccessIdentityItems: [],
  bundle: null,
  ...patch,
});

describe("the paywall's links", () => {
  it("leads a pay-per-view or a bundle to the event's purchase page and a subscription to its own, coming back after", () => {
    expect(purchasePath(product({ id: "ppv1", type: "ppv" }), "e1", "/events/e1")).toBe(
      "/account/ppv/e1?product=ppv1&redirect=%2Fevents%2Fe1",
    );
    expect(purchasePath(product({ id: "b1", type: "bundle" }), "e1", "/events/e1")).toBe(
      "/account/ppv/e1?product=b1&redirect=%2Fevents%2Fe1",
    );
    expect(purchasePath(product({ id: "s1", type: "svod" }), "e1", "/events/e1?t=60")).toBe(
      "/account/subscription/buy/s1?redirect=%2Fevents%2Fe1%3Ft%3D60",
    );
    expect(redeemCodePath("/events/e1")).toBe("/auth/sign-up/subscription/code?redirect=%2Fevents%2Fe1");
  });

  it("sends anonymous viewers to sign in first, then on", () => {
    const target = "/account/subscription/buy/s1?redirect=%2Fevents%2Fe1";
    expect(forViewer(target, true)).toBe(target);
    expect(forViewer(target, false)).toBe(`/auth/login/?redirect=${encodeURIComponent(target)}`);
  });

  it("offers this match first, then bundles, then subscriptions, leaving out what is held or not sold here", () => {
    const offered = offeredProducts(
      [
        product({ id: "svod-dear", type: "svod", price: 14.99 }),
        product({ id: "svod-cheap", type: "cvod", price: 4.99 }),
        product({ id: "bundle", type: "bundle", price: 15 }),
        product({ id: "ppv", type: "ppv", eventId: "e1" }),
        product({ id: "held", type: "svod", active: true }),
        product({ id: "elsewhere", type: "svod", availableInUserRegion: false }),
      ],
      "e1",
    );
    expect(offered.map((item) => item.id)).toEqual(["ppv", "bundle", "svod-cheap", "svod-dear"]);
  });
});

describe("the countdown", () => {
  const kickoff = new Date("2026-12-01T18:00:00Z");
  const at = (iso: string) => new Date(iso).getTime();

  it("counts whole seconds down, showing the last one until it has passed", () => {
    expect(formatTimeLeft(timeLeft(kickoff, at("2026-12-01T17:47:14.500Z")), "en")).toBe("12:46");
    expect(formatTimeLeft(timeLeft(kickoff, at("2026-12-01T17:59:59.900Z")), "en")).toBe("00:01");
  });

  it("shows hours, and days in the viewer's language", () => {
    expect(formatTimeLeft(timeLeft(kickoff, at("2026-12-01T15:00:00Z")), "en")).toBe("03:00:00");
    expect(formatTimeLeft(timeLeft(kickoff, at("2026-11-29T15:00:00Z")), "en")).toBe("2 days 03:00:00");
    expect(formatTimeLeft(timeLeft(kickoff, at("2026-11-30T15:00:00Z")), "de")).toBe("1 Tag 03:00:00");
  });

  it("stops at zero once kick-off time has come", () => {
    const left = timeLeft(kickoff, at("2026-12-01T18:00:05Z"));
    expect(left.total).toBe(0);
    expect(formatTimeLeft(left, "en")).toBe("00:00");
  });
});
