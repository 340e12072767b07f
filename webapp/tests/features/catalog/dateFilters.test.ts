import { describe, expect, it } from "vitest";
import { DATE_FILTERS, eventDateRange, isDateFilter, roundFilterStart } from "@/features/catalog/lib/dateFilters";

// A fixed clock in the viewer's local time: 23 November 2026, 15:42:37.500.
const NOW = new Date(2026, 10, 23, 15, 42, 37, 500);
const local = (...parts: [number, number, number, number?, number?, number?, number?]) => new Date(...parts).getTime();

describe("archive date filters", () => {
  it("offers the six filters of the spec", () => {
    expect(DATE_FILTERS).toEqual(["anytime", "today", "yesterday", "past_7_days", "past_30_days", "past_90_days"]);
    expect(isDateFilter("past_7_days")).toBe(true);
    expect(isDateFilter("last_week")).toBe(false);
    expect(isDateFilter(null)).toBe(false);
  });

  it("rounds a start down to the minute and adds one second", () => {
    expect(roundFilterStart(new Date(2026, 10, 16, 15, 42, 37, 500))).toBe(local(2026, 10, 16, 15, 42, 1));
  });

  it("sends no date filter for anytime", () => {
    expect(eventDateRange("anytime", NOW)).toBeUndefined();
  });

  it("starts today at the local midnight (plus one second) and ends now", () => {
    expect(eventDateRange("today", NOW)).toBe(`${local(2026, 10, 23, 0, 0, 1)}~${NOW.getTime()}`);
  });

  it("covers yesterday only, up to the start of today", () => {
    expect(eventDateRange("yesterday", NOW)).toBe(`${local(2026, 10, 22, 0, 0, 1)}~${local(2026, 10, 23) - 1}`);
  });

  it("goes back 7, 30 and 90 days from now, the start rounded down to the minute plus one second", () => {
    const DAY = 86_400_000;
    const start = (days: number) => {
      const d = new Date(NOW.getTime() - days * DAY);
      d.setSeconds(1, 0);
      return d.getTime();
    };
    expect(eventDateRange("past_7_days", NOW)).toBe(`${start(7)}~${NOW.getTime()}`);
    expect(eventDateRange("past_30_days", NOW)).toBe(`${start(30)}~${NOW.getTime()}`);
    expect(eventDateRange("past_90_days", NOW)).toBe(`${start(90)}~${NOW.getTime()}`);
    expect(new Date(start(7)).getSeconds()).toBe(1);
  });

  it("writes ranges the API accepts ('from~to' in epoch ms)", () => {
    for (const filter of DATE_FILTERS.filter((f) => f !== "anytime")) {
      expect(eventDateRange(filter, NOW)).toMatch(/^[0-9]{0,14}~[0-9]{0,14}$/);
    }
  });
});
