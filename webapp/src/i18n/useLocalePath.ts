import { useCallback } from "react";
import { useLocation } from "react-router";
import { localizePath, splitLocalePath, type Locale } from "./locales";

/** The locale of the current URL ("/de/live" → "de"; no prefix → "en"). */
export function useLocale(): Locale {
  return splitLocalePath(useLocation().pathname).locale;
}

/** Turns an app path into a link for the current locale: "/league/3" → "/de/league/3". */
export function useLocalePath(): (path: string) => string {
  const locale = useLocale();
  return useCallback((path: string) => localizePath(path, locale), [locale]);
}
