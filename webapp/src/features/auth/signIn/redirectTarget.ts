import { DEFAULT_LOCALE, localizePath, splitLocalePath, type Locale } from "@/i18n/locales";

/** Pages a sign-in must never return to: they would show the sign-in again or restart a flow. */
const NO_RETURN = /^\/auth\/(login|sign-up\/?$|password|oauth2)/;

/**
 * The `?redirect=` return path, only when it is a relative path of this site ("/live",
 * "/de/events/3?x=1"); anything else (absolute URLs, "//host", backslashes, auth pages) is
 * dropped so a crafted link cannot send the viewer elsewhere after signing in.
 */
export function safeRedirectPath(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.includes("\\")) return null;
  let url: URL;
  try {
    url = new URL(raw, window.location.origin);
  } catch {
    return null;
  }
  // The URL parser drops tabs and newlines ("/\t/evil.test"): judge what it actually resolved to.
  if (url.origin !== window.location.origin) return null;
  if (NO_RETURN.test(splitLocalePath(url.pathname).path)) return null;
  return url.pathname + url.search + url.hash;
}

/**
 * Where to go after signing in: the safe return path (kept as is when it already carries a
 * locale prefix, else given the current one), or the localized home page.
 */
export function signedInTarget(raw: string | null | undefined, locale: Locale): string {
  const path = safeRedirectPath(raw);
  if (!path) return localizePath("/", locale);
  const { locale: own } = splitLocalePath(path);
  return own !== DEFAULT_LOCALE ? path : localizePath(path, locale);
}

/** "?redirect=…" to hand the return path on to the next auth page (empty when there is none). */
export function redirectQuery(raw: string | null | undefined, prefix: "?" | "&" = "?"): string {
  const path = safeRedirectPath(raw);
  return path ? `${prefix}redirect=${encodeURIComponent(path)}` : "";
}
