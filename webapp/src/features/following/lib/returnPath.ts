import { DEFAULT_LOCALE, localizePath, splitLocalePath, type Locale } from "@/i18n/locales";

/**
 * Where a flow continues: the `?redirect=` path when it is a path of this site (never another
 * site, never back into sign-up or sign-in), else the home page; given the locale unless it has one.
 */
export function continueTarget(raw: string | null | undefined, locale: Locale): string {
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.includes("\\")) return localizePath("/", locale);
  let url: URL;
  try {
    url = new URL(raw, window.location.origin);
  } catch {
    return localizePath("/", locale);
  }
  const { locale: own, path } = splitLocalePath(url.pathname);
  if (url.origin !== window.location.origin || /^\/(auth|club)(\/|$)/.test(path)) return localizePath("/", locale);
  const target = url.pathname + url.search + url.hash;
  return own !== DEFAULT_LOCALE ? target : localizePath(target, locale);
}
