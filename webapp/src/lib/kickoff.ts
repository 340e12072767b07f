/**
 * Dates of the catalogue in the viewer's locale and time zone. `timeZone` is for tests and
 * server-chosen zones; left out, the browser's own zone applies.
 */

// Building an Intl formatter costs far more than using one, and a page of cards needs hundreds:
// each distinct (locale, options) pair is built once.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(locale, options)));
  return format;
}

function relativeFormat(locale: string): Intl.RelativeTimeFormat {
  let format = relativeFormats.get(locale);
  if (!format) relativeFormats.set(locale, (format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" })));
  return format;
}

/** Days from `now` to `date` as calendar days in the time zone (0 today, 1 tomorrow, -1 yesterday). */
export function calendarDayOffset(date: Date, now: Date, timeZone?: string): number {
  const dayNumber = (d: Date) => {
    const parts = dateFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric" }).formatToParts(d);
    const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    return Date.UTC(part("year"), part("month") - 1, part("day")) / 86_400_000;
  };
  return dayNumber(date) - dayNumber(now);
}

function capitalize(text: string, locale: string): string {
  return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
}

export function formatTime(date: Date, locale: string, timeZone?: string): string {
  return dateFormat(locale, { hour: "numeric", minute: "2-digit", timeZone }).format(date);
}

/**
 * The day of a kick-off: "Today", "Tomorrow", "Yesterday" (in the locale's words), else the
 * weekday and date, with the year only when it is not this year's.
 */
export function formatDay(date: Date, locale: string, now: Date, timeZone?: string): string {
  const offset = calendarDayOffset(date, now, timeZone);
  if (Math.abs(offset) <= 1) {
    return capitalize(relativeFormat(locale).format(offset, "day"), locale);
  }
  const sameYear =
    dateFormat("en-US", { timeZone, year: "numeric" }).format(date) ===
    dateFormat("en-US", { timeZone, year: "numeric" }).format(now);
  return dateFormat(locale, {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: sameYear ? undefined : "numeric",
    timeZone,
  }).format(date);
}

/** The full date and time, for `<time title>` and the event page. */
export function formatDateTime(date: Date, locale: string, timeZone?: string): string {
  return dateFormat(locale, { dateStyle: "full", timeStyle: "short", timeZone }).format(date);
}

/** Clip length as m:ss or h:mm:ss. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
