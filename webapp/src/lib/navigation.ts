import { localizePath, splitLocalePath } from "@/i18n/locales";

/**
 * Navigation for code outside React components (the session layer, the socket client).
 * The router registers itself here at start-up; paths are app paths ("/auth/login/") and get
 * the current locale's prefix. Absolute URLs are full-page navigations.
 */
type Navigate = (to: string, options?: { replace?: boolean }) => void;

let navigateImpl: Navigate | null = null;

export function registerNavigator(navigate: Navigate): void {
  navigateImpl = navigate;
}

export function navigateTo(path: string, options: { replace?: boolean } = {}): void {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    window.location.assign(path);
    return;
  }
  const { locale } = splitLocalePath(window.location.pathname);
  const target = localizePath(path, locale);
  if (navigateImpl) navigateImpl(target, options);
  else window.location.assign(target);
}
