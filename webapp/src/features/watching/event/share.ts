/**
 * Share links of the event page: `?t=` carries where to start, in stream seconds. Links written
 * by people are read too: `t=754`, `t=754s`, `t=12m34s`, `t=1h2m3s`.
 */
const UNITS = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s?)?$/;

/** Stream seconds from a `t` parameter; null when there is none or it is not a time. */
export function parseStartAt(raw: string | null | undefined): number | null {
  const text = raw?.trim().toLowerCase();
  if (!text) return null;
  const match = UNITS.exec(text);
  if (!match || (!match[1] && !match[2] && !match[3])) return null;
  const [, hours = "0", minutes = "0", seconds = "0"] = match;
  const total = Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
  return Number.isFinite(total) ? total : null;
}

/**
 * The address to share: the page's path and query without any previous `t`, plus `t` in whole
 * seconds when the link should start there.
 */
export function shareUrl(origin: string, path: string, search: string, startAt: number | null): string {
  const params = new URLSearchParams(search);
  params.delete("t");
  if (startAt !== null && startAt >= 0) params.set("t", String(Math.floor(startAt)));
  const query = params.toString();
  return `${origin}${path}${query ? `?${query}` : ""}`;
}
