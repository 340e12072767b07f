import { afterEach, describe, expect, it, vi } from "vitest";
import { act, renderHook } from "@testing-library/react";
import {
  DATE_FILTERS,
  eventDateRange,
  filterNow,
  isDateFilter,
  useFilterNow,
} from "@/features/catalog/lib/dateFilters";

// A fixed clock in the viewer's local time: 23 November 2026, 15:42:37.500.
const CLOCK = new Date(2026, 10, 23, 15, 42, 37, 500);
const local = (...parts: [number, number, number, number?, number?, number?, number?]) => new Date(...parts).getTime();
const NOW = filterNow(CLOCK);
const DAY = 86_400_000;

const bounds = (range: string | undefined) => range!.split("~").map(Number);

afterEach(() => {
  vi.useRealTimers();
});

describe("archive date filters", () => {
  it("offers the six filters of the spec", () => {
    expect(DATE_FILTERS).toEqual(["anytime", "today", "yesterday", "past_7_days", "past_30_days", "past_90_days"]);
    expect(isDateFilter("past_7_days")).toBe(true);
    expect(isDateFilter("last_week")).toBe(false);
    expect(isDateFilter(null)).toBe(false);
  });

  it("rounds now down to the minute and adds one second", () => {
    expect(NOW).toBe(local(2026, 10, 23, 15, 42, 1));
  });

  it("gives the same now for every instant of a minute, so the list's query stays the same", () => {
    expect(filterNow(new Date(2026, 10, 23, 15, 42, 0, 0))).toBe(NOW);
    expect(filterNow(new Date(2026, 10, 23, 15, 42, 59, 999))).toBe(NOW);
    expect(filterNow(new Date(2026, 10, 23, 15, 43, 0, 0))).toBe(local(2026, 10, 23, 15, 43, 1));
  });

  it("sends no date filter for anytime", () => {
    expect(eventDateRange("anytime", NOW)).toBeUndefined();
  });

  it("starts today one second after the local midnight and ends at the rounded now", () => {
    expect(eventDateRange("today", NOW)).toBe(`${local(2026, 10, 23, 0, 0, 1)}~${local(2026, 10, 23, 15, 42, 1)}`);
  });

  it("covers yesterday only, ending exactly where today starts", () => {
    expect(eventDateRange("yesterday", NOW)).toBe(`${local(2026, 10, 22, 0, 0, 1)}~${local(2026, 10, 23)}`);
  });

  it("goes back exactly 7, 30 and 90 days from the rounded now", () => {
    expect(eventDateRange("past_7_days", NOW)).toBe(
      `${local(2026, 10, 16, 15, 42, 1)}~${local(2026, 10, 23, 15, 42, 1)}`,
    );
    for (const [filter, days] of [
      ["past_7_days", 7],
      ["past_30_days", 30],
      ["past_90_days", 90],
    ] as const) {
      const [from, to] = bounds(eventDateRange(filter, NOW));
      expect(to).toBe(local(2026, 10, 23, 15, 42, 1));
      expect(to - from).toBe(days * DAY);
    }
  });

  it("writes ranges the API accepts ('from~to' in epoch ms)", () => {
    for (const filter of DATE_FILTERS.filter((f) => f !== "anytime")) {
      expect(eventDateRange(filter, NOW)).toMatch(/^[0-9]{0,14}~[0-9]{0,14}$/);
    }
  });
});

describe("useFilterNow", () => {
  it("keeps its now while the page stays open and takes a new one when the page is seen again", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(CLOCK);
    const { result, rerender } = renderHook(() => useFilterNow());
    expect(result.current).toBe(NOW);

    vi.setSystemTime(new Date(2026, 10, 24, 0, 5, 12));
    rerender();
    expect(result.current).toBe(NOW);

    act(() => {
      window.dispatchEvent(new Event("focus"));
    });
    expect(result.current).toBe(local(2026, 10, 24, 0, 5, 1));
  });
});
