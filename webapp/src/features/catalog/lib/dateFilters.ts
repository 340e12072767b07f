/** The archive's date filters (spec §3 "Date filters"). */
export const DATE_FILTERS = ["anytime", "today", "yesterday", "past_7_days", "past_30_days", "past_90_days"] as const;
export type DateFilter = (typeof DATE_FILTERS)[number];

export function isDateFilter(value: string | null | undefined): value is DateFilter {
  return !!value && (DATE_FILTERS as readonly string[]).includes(value);
}

const DAY_MS = 86_400_000;
const PAST_DAYS: Partial<Record<DateFilter, number>> = { past_7_days: 7, past_30_days: 30, past_90_days: 90 };

/** Spec §9: a filter's start is rounded down to the minute, plus one second. */
export function roundFilterStart(date: Date): number {
  const minute = new Date(date.getTime());
  minute.setSeconds(0, 0);
  return minute.getTime() + 1000;
}

function startOfLocalDay(date: Date, daysBack = 0): Date {
  const day = new Date(date.getTime());
  day.setDate(day.getDate() - daysBack);
  day.setHours(0, 0, 0, 0);
  return day;
}

/**
 * The `event_date` filter ('from~to' in epoch ms) for a date filter, or undefined for anytime.
 * Days are the viewer's local days. "to" is now, except for yesterday, which ends where today
 * starts (otherwise it would also list today's events).
 */
export function eventDateRange(filter: DateFilter, now: Date): string | undefined {
  switch (filter) {
    case "anytime":
      return undefined;
    case "today":
      return `${roundFilterStart(startOfLocalDay(now))}~${now.getTime()}`;
    case "yesterday":
      return `${roundFilterStart(startOfLocalDay(now, 1))}~${startOfLocalDay(now).getTime() - 1}`;
    default:
      return `${roundFilterStart(new Date(now.getTime() - PAST_DAYS[filter]! * DAY_MS))}~${now.getTime()}`;
  }
}
