import { StrictMode, Suspense, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider, matchRoutes } from "react-router";
import { appConfigQuery, type AppConfig } from "@/lib/config";
import type { RouteHandle } from "@/lib/routeTypes";
import { authorizeApiCalls } from "@/session/authorization";
import { hideSpoilersInCalls } from "@/session/spoilers";
import { sessionStore } from "@/session/store";
import { queryClient } from "@/lib/queryClient";
import { appRoutes, createAppRouter } from "@/app/router";
import { registerNavigator } from "@/lib/navigation";
import { initI18n } from "@/i18n";
import { splitLocalePath } from "@/i18n/locales";
import { applyTheme, effectiveTheme, readStoredTheme } from "@/ui/theme";
import { PageSkeleton } from "@/ui/PageSkeleton";
import { showStartupError } from "@/app/StartupError";
import { yieldToMain } from "@/lib/yieldToMain";
import { preloadSmartBanner } from "@/ui/smartBannerLoad";
import { signedInMenuCode } from "@/ui/header/UserMenu";
import "@/ui/theme.css";

/**
 * How long the first render waits for the first page's data once the page's code is here. The
 * server usually puts the answers into the page (no wait at all); a render before they are in
 * would show skeletons, and the answers would then render the whole page over again at once, in
 * one long task (query updates are never time-sliced).
 */
const FIRST_DATA_WAIT_MS = 1000;

/**
 * Starts downloading the first page's code now, and its public data as soon as the configuration
 * is there, instead of after the router has loaded both in turn. Two steps, each a task of its
 * own on a phone: finding the route, then asking for its code (whose module preloads cost more
 * than their share of a task). Answers the page's data: settled once it is in the query cache.
 */
async function preloadFirstPage(config: Promise<AppConfig>): Promise<{ data: Promise<void> }> {
  const match = (matchRoutes(appRoutes, window.location) ?? []).at(-1);
  const route = match?.route;
  const target = { params: match?.params ?? {}, url: new URL(window.location.href) };
  const prefetch = (route?.handle as RouteHandle | undefined)?.prefetch;
  const { token, user } = sessionStore.getState();
  const data = prefetch
    ? config.then(
        (loaded) => prefetch(loaded, Boolean(token && user), target),
        () => undefined,
      )
    : Promise.resolve();
  await yieldToMain();
  const lazy = route?.lazy;
  // The router loads it again and reports failures; this only starts the download sooner.
  if (lazy && typeof lazy === "object" && lazy.Component) void lazy.Component().catch(() => undefined);
  return { data };
}

/**
 * Resolves once the router has loaded the first page (its loaders, code and translations). Until
 * then the loading frame stays, with the first poster the server may have put into it
 * (server/first_view.py): React's first paint is the page, not a skeleton replacing that poster.
 */
function firstPageLoaded(router: ReturnType<typeof createAppRouter>): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

/** Parts loaded on the side (session checks, realtime): a failed download only loses that part. */
function reportLoadFailure(part: string): (error: unknown) => void {
  return (error) => console.error(`Could not load ${part}:`, error);
}

// The built page starts this code only once its loading frame, with the first poster the server
// may have put into it (server/first_view.py), is painted (index.html, vite.config.ts).
async function start() {
  // Evaluating the modules was a task of its own; the start-up steps come after it, in theirs.
  await yieldToMain();
  // Calls ask for answers without scores in spoiler-free mode; first, so a call the session
  // retries after a 401 asks the same.
  hideSpoilersInCalls(queryClient);
  // Every call from here on carries the session's token (the HTTP client does not know the session).
  authorizeApiCalls();
  // Before anyone can sign in or out (here or in another tab), so no viewer sees another's cached
  // answers. Its own chunk (socket.io's loads it too): it need not hold back the first paint.
  void import("@/session/auth")
    .then(({ watchViewerChanges }) => watchViewerChanges(queryClient))
    .catch(reportLoadFailure("the session code"));
  const configLoad = queryClient.ensureQueryData(appConfigQuery);
  // Its failure is answered below, after the first steps: not an unhandled rejection meanwhile.
  configLoad.catch(() => undefined);
  // Start-up comes in a few tasks, not one long one that a phone spends 200 ms on: the page stays
  // responsive and the downloads just started go on meanwhile.
  const firstPage = await preloadFirstPage(configLoad);
  // Parts of the shell the first render shows that are not in the first load come meanwhile: the
  // app banner on phones (app/AppShell.tsx), the signed-in menu with a session.
  const shellParts = [
    preloadSmartBanner(navigator.userAgent),
    sessionStore.getState().token ? signedInMenuCode.preload() : undefined,
  ];
  await yieldToMain();
  const { locale } = splitLocalePath(window.location.pathname);
  // The config decides the theme and the socket; the translations must be there before text renders.
  const translations = initI18n(locale);
  const [config] = await Promise.all([configLoad, translations]).catch(async (error: unknown) => {
    // Let the translations settle first, so the error screen can speak the viewer's language.
    await translations.catch(() => undefined);
    throw error;
  });
  applyTheme(effectiveTheme(config.enable_white_theme, readStoredTheme()));
  // Error reporting (only with a DSN) and analytics (off in development): never in the first load.
  void import("@/session/telemetry")
    .then(({ startTelemetry }) => startTelemetry(config))
    .catch(reportLoadFailure("error reporting and analytics"));
  await yieldToMain();
  const router = createAppRouter();
  registerNavigator((to, options) => void router.navigate(to, options));
  // Spec §4 start-up: a stored session is checked.
  if (sessionStore.getState().token) {
    void import("@/session/auth")
      .then(({ loadSessionOnStartup }) => loadSessionOnStartup())
      .catch(reportLoadFailure("the session check"));
  }

  await Promise.all([firstPageLoaded(router), ...shellParts]);
  // The first render shows the page with its data, once, rather than skeletons first.
  await Promise.race([firstPage.data, new Promise((resolve) => setTimeout(resolve, FIRST_DATA_WAIT_MS))]);
  // index.html carries it; without it nothing can render, and the failure is logged like any other.
  const container = document.getElementById("root");
  if (!container) throw new Error("The page has no #root element");
  const root = createRoot(container);
  // A transition: React renders the whole first page in slices, yielding to the browser between
  // them, instead of in one long task that would hold up input (the loading frame stays until
  // it commits).
  startTransition(() =>
    root.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <Suspense fallback={<PageSkeleton />}>
            <RouterProvider router={router} />
          </Suspense>
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
  // The socket (and socket.io's ~13 KB) is not needed for the first paint: connect once idle.
  const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 1));
  idle(() => {
    void import("@/realtime/socket")
      .then(({ startRealtime }) => startRealtime(queryClient))
      .catch(reportLoadFailure("realtime updates"));
  });
}

// Without the configuration or the translations nothing can render: say so instead of loading forever.
// Exported so that tests can wait for a start-up to end before the next one begins.
export const started: Promise<void> = start().catch(showStartupError);
