import { DEFAULT_LOCALE, LOCALES, localizePath, splitLocalePath, type Locale } from "@/i18n/locales";

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
 * The language's own name ("Deutsch", "עברית") from the browser's locale data, capitalised.
 * The region is named only where two locales share a language (French and French-Canadian).
 */
export function languageName(locale: Locale): string {
  const language = locale.split("-")[0];
  const shared = LOCALES.some((other) => other !== locale && other.split("-")[0] === language);
  let name: string = locale;
  try {
    name =
      new Intl.DisplayNames([locale], { type: "language", languageDisplay: "standard" }).of(
        shared ? locale : language,
      ) ?? locale;
  } catch {
    // No locale data in this runtime: the code is still a usable label.
  }
  return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
}
