/** The time left until kick-off, split for display. */
export interface TimeLeft {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  /** Milliseconds left; 0 once kick-off time has come. */
  total: number;
}

export function timeLeft(startsAt: Date, now: number): TimeLeft {
  const total = Math.max(0, startsAt.getTime() - now);
  // Rounded up: "0:00:01" shows until the very last second has passed.
  const whole = Math.ceil(total / 1000);
  return {
    days: Math.floor(whole / 86_400),
    hours: Math.floor((whole % 86_400) / 3600),
    minutes: Math.floor((whole % 3600) / 60),
    seconds: whole % 60,
    total,
  };
}

const two = (value: number) => String(value).padStart(2, "0");

/** The clock part: "03:12:45", or "12:45" in the last hour. */
export function formatClock(left: TimeLeft): string {
  return left.days > 0 || left.hours > 0
    ? `${two(left.hours)}:${two(left.minutes)}:${two(left.seconds)}`
    : `${two(left.minutes)}:${two(left.seconds)}`;
}

/** The days part in the locale's words ("2 days", "2 Tage"), or null in the last day. */
export function formatDays(left: TimeLeft, locale: string): string | null {
  if (left.days === 0) return null;
  return new Intl.NumberFormat(locale, { style: "unit", unit: "day", unitDisplay: "long" }).format(left.days);
}

/** "2 days 03:12:45", "03:12:45" or "12:45". */
export function formatTimeLeft(left: TimeLeft, locale: string): string {
  const days = formatDays(left, locale);
  return days ? `${days} ${formatClock(left)}` : formatClock(left);
}
