import Cookies from "js-cookie";
import type { AppConfig } from "@/lib/config";
import { storePlatformOf, type StorePlatform } from "./storePlatform";

/**
 * Rules of the smart app banner (spec §2, §4, §9): mobile browsers other than Safari (Safari
 * on iOS shows Apple's own banner), hidden by a cookie for a while after the viewer closes it.
 */
export { storePlatformOf, type StorePlatform };

export const SMART_BANNER_COOKIE = "smart_banner_closed";
/** Outside production the cookie is short-lived so the banner can be tested again quickly. */
export const SMART_BANNER_DEV_MINUTES = 2;

// iOS browsers are WebKit with their own token; without one of these, an iOS "Safari/" UA is Safari.
const IOS_OTHER_BROWSERS =
  /CriOS|FxiOS|EdgiOS|OPiOS|OPT\/|GSA\/|YaBrowser|DuckDuckGo|Brave|FBAN|FBAV|Instagram|Line\//i;

export function isMobileSafari(userAgent: string): boolean {
  return storePlatformOf(userAgent) === "ios" && /Safari\//.test(userAgent) && !IOS_OTHER_BROWSERS.test(userAgent);
}

export function shouldShowSmartBanner(userAgent: string): boolean {
  return storePlatformOf(userAgent) !== null && !isMobileSafari(userAgent);
}

/** The store link the Get button opens, or null when the tenant has none for this platform. */
export function smartBannerStoreUrl(userAgent: string, banner: AppConfig["smart_banner"]): string | null {
  if (!banner.enabled || !shouldShowSmartBanner(userAgent)) return null;
  const platform = storePlatformOf(userAgent);
  const url = platform === "android" ? banner.android_url : banner.ios_url;
  return url || null;
}

export function smartBannerClosedMinutes(banner: AppConfig["smart_banner"], production: boolean): number {
  return production ? banner.closed_cookie_minutes : SMART_BANNER_DEV_MINUTES;
}

export function isSmartBannerDismissed(): boolean {
  return Cookies.get(SMART_BANNER_COOKIE) !== undefined;
}

export function dismissSmartBanner(minutes: number): void {
  // js-cookie counts `expires` in days; fractions of a day are honoured.
  Cookies.set(SMART_BANNER_COOKIE, "1", { expires: minutes / (24 * 60), sameSite: "lax", path: "/" });
}
