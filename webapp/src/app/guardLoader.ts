import { redirect, type LoaderFunction } from "react-router";
import { appConfigQuery } from "@/lib/config";
import { pageNotFound } from "@/lib/errors";
import { allowedStoreUrl, runGuards } from "./guards";
import { queryClient } from "@/lib/queryClient";
import type { RouteHandle } from "@/lib/routeTypes";
import { localizePath, splitLocalePath } from "@/i18n/locales";
import { sessionStore } from "@/session/store";

/** Never settles: the page is being left for another site, nothing should render meanwhile. */
const leaving = () =>
  new Promise<never>(() => {
    // Neither resolved nor rejected: the browser is on its way to the other site.
  });

/** The loader of every page: the storeUrl redirect on the root, then the guards and middleware. */
export function guardLoader(handle: RouteHandle): LoaderFunction {
  return async ({ request, params }) => {
    const url = new URL(request.url);
    const { locale, path } = splitLocalePath(url.pathname);
    const config = await queryClient.ensureQueryData(appConfigQuery);

    if (handle.name === "index" && url.searchParams.has("storeUrl")) {
      const target = allowedStoreUrl(url.searchParams.get("storeUrl"), config.store_url_hosts);
      if (target) {
        window.location.replace(target);
        return leaving();
      }
    }

    const session = sessionStore.getState();
    const isAuthenticated = Boolean(session.token && session.user);
    const outcome = runGuards({
      path,
      returnTo: path + url.search,
      config,
      isAuthenticated,
      favoriteClubId: session.user?.favoriteClubId,
      middleware: handle.middleware ?? [],
    });
    switch (outcome.kind) {
      case "redirect":
        throw redirect(localizePath(outcome.to, locale));
      case "external":
        window.location.assign(outcome.to);
        return leaving();
      case "not-found":
        throw pageNotFound(url.pathname);
      default:
        // Not awaited: an in-app navigation shows the page at once, its data as it comes.
        void handle.prefetch?.(config, isAuthenticated, { params, url });
        return null;
    }
  };
}

const UNMATCHED: RouteHandle = { name: "not-found", layout: "default" };

/**
 * Paths no page answers: the guards still run first, because redirect rules are mostly for old
 * addresses that are no longer pages; then it is 'Page not found: {path}'.
 */
export const unmatchedLoader: LoaderFunction = async (args) => {
  await guardLoader(UNMATCHED)(args);
  throw pageNotFound(new URL(args.request.url).pathname);
};
