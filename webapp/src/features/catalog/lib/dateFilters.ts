import { useEffect, useState } from "react";

/** The archive's date filters (spec §3 "Date filters"). */
export const DATE_FILTERS = ["anytime", "today", "yesterday", "past_7_days", "past_30_days", "past_90_days"] as const;
export type DateFilter = (typeof DATE_FILTERS)[number];

export function isDateFilter(value: string | null | undefined): value is DateFilter {
  return !!value && (DATE_FILTERS as readonly string[]).includes(value);
}

const SECOND_MS = 1000;
const DAY_MS = 86_400_000;
const PAST_DAYS = { past_7_days: 7, past_30_days: 30, past_90_days: 90 } satisfies Partial<Record<DateFilter, number>>;

/**
 * Spec §9: date filters are rounded down to the minute, plus one second. Every bound derives from
 * this one instant, so a list asks the same question (and hits the same cache) within a minute.
 */
export function filterNow(date: Date): number {
  const minute = new Date(date.getTime());
  minute.setSeconds(0, 0);
  return minute.getTime() + SECOND_MS;
}

function startOfLocalDay(time: number, daysBack = 0): number {
  const day = new Date(time);
  day.setDate(day.getDate() - daysBack);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}

/**
 * The `event_date` filter ('from~to' in epoch ms, both ends inclusive) for a date filter, or
 * undefined for anytime. `now` is a rounded instant from filterNow. Days are the viewer's local
 * days; a day starts one second after midnight so yesterday (which ends at midnight) and today
 * do not share an event.
 */
export function eventDateRange(filter: DateFilter, now: number): string | undefined {
  switch (filter) {
    case "anytime":
      return undefined;
    case "today":
      return `${startOfLocalDay(now) + SECOND_MS}~${now}`;
    case "yesterday":
      return `${startOfLocalDay(now, 1) + SECOND_MS}~${startOfLocalDay(now)}`;
    default:
      return `${now - PAST_DAYS[filter] * DAY_MS}~${now}`;
  }
}

/**
 * The rounded "now" of the date filters: fixed while the page stays open, so Back finds the same
 * list in the cache, and taken again when the page comes back into view (a tab left open past
 * midnight must not keep showing yesterday as today).
 */
export function useFilterNow(): number {
  const [now, setNow] = useState(() => filterNow(new Date()));
  useEffect(() => {
    const refresh = () => {
      if (document.visibilityState === "visible") setNow(filterNow(new Date()));
    };
    document.addEventListener("visibilitychange", refresh);
    window.addEventListener("focus", refresh);
    return () => {
      document.removeEventListener("visibilitychange", refresh);
      window.removeEventListener("focus", refresh);
    };
  }, []);
  return now;
}
