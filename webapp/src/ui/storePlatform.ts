export type StorePlatform = "android" | "ios";

/**
 * The store a device's apps come from, by its browser's identification string; null for a
 * desktop. Its own module: the first load needs it (ui/smartBannerLoad.ts), the banner's rules
 * too (ui/smartBanner.ts).
 */
export function storePlatformOf(userAgent: string): StorePlatform | null {
  if (/Android/i.test(userAgent)) return "android";
  if (/iPhone|iPad|iPod/i.test(userAgent)) return "ios";
  return null;
}
