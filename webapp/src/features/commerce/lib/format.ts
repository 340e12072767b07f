/** A day and time in the viewer's locale and time zone. */
export function formatDate(date: Date | null, locale: string): string {
  if (!date) return "-";
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(date);
}
