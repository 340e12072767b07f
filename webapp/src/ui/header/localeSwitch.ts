import { DEFAULT_LOCALE, localizePath, splitLocalePath, type Locale } from "@/i18n/locales";

/**
 * The same page in another locale: "/de/league/3?x=1" → "/fr/league/3?x=1", "/de/live" → "/live"
 * (English has no prefix), "/" → "/de". Query and hash are kept.
 */
export function switchLocalePath(url: string, locale: Locale): string {
  const split = url.search(/[?#]/);
  const pathname = split === -1 ? url : url.slice(0, split);
  const rest = split === -1 ? "" : url.slice(split);
  const { path } = splitLocalePath(pathname || "/");
  const localized = path === "/" && locale !== DEFAULT_LOCALE ? `/${locale}` : localizePath(path, locale);
  return localized + rest;
}

/**
 * Each language's own name, capitalised; the region is named only where two locales share a
 * language (French and French-Canadian). Written out rather than asked of Intl.DisplayNames: that
 * loads each locale's data on the first render of every page's header (about 18 ms on a fast
 * machine, four times that on a phone), and a test checks this table against it.
 */
export const LANGUAGE_NAMES: Readonly<Record<Locale, string>> = {
  en: "English",
  de: "Deutsch",
  es: "Español",
  fr: "Français",
  "fr-CA": "Français (Canada)",
  he: "עברית",
  it: "Italiano",
  pl: "Polski",
  pt: "Português",
  ca: "Català",
  ko: "한국어",
  zh: "中文",
  "bs-BA": "Bosanski",
  "uk-UA": "Українська",
};

export function languageName(locale: Locale): string {
  return LANGUAGE_NAMES[locale];
}
