// The app banner's code is a chunk of its own, loaded only on phones and tablets. There start-up
// fetches it with the first page, so it is part of the first render and never pushes the page
// down a moment later. This module is tiny on purpose: the first load imports it.
import { preloadable } from "@/lib/preloadable";
import { storePlatformOf } from "./storePlatform";

export const smartBannerCode = preloadable(() => import("./SmartBanner").then((module) => module.SmartBanner));

/** Starts loading the banner's code where it may show (the full rules are the banner's own). */
export function preloadSmartBanner(userAgent: string): Promise<void> {
  return storePlatformOf(userAgent) ? smartBannerCode.preload() : Promise.resolve();
}
