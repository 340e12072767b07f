import type { AppConfig } from "./config";

/**
 * The handle of every route of spec §2 (src/app/routes.tsx): the route's name (used by the
 * survey's suppression list), its layout and its named middleware. Pages read their own route's
 * handle, so the types live here, below the features, rather than with the route table.
 */
export type Middleware = "auth" | "disable-team-page";
export type LayoutName = "home" | "default" | "auth" | "account";
export interface RouteHandle {
  name: string;
  layout: LayoutName;
  middleware?: Middleware[];
  /** Starts fetching the page's public data early: from its loader, and at start-up for the first page. */
  prefetch?: Prefetch;
}

/** Where the navigation goes: the route's path parameters and the whole URL. */
export interface PrefetchTarget {
  params: Readonly<Record<string, string | undefined>>;
  url: URL;
}

/**
 * Data a page can ask for before its code has arrived (duplicate calls are deduplicated). Settles,
 * never rejects, once the answers are in the query cache or have failed (the page shows failures).
 */
export type Prefetch = (config: AppConfig, isAuthenticated: boolean, target: PrefetchTarget) => Promise<void>;
