import { Suspense, lazy, useEffect, useRef, useState, type ReactNode } from "react";
import { Outlet, ScrollRestoration, useLocation, useMatches } from "react-router";
import type { LayoutName, RouteHandle } from "@/lib/routeTypes";
import { HomeLayout } from "./layouts/HomeLayout";
import { DefaultLayout } from "./layouts/DefaultLayout";
import { AuthLayout } from "./layouts/AuthLayout";
import { AccountLayout } from "./layouts/AccountLayout";
import { changeLocale, loadNamespace } from "@/i18n";
import { useAppConfig } from "@/lib/config";
import { useIsAuthenticated } from "@/session/store";
import { splitLocalePath } from "@/i18n/locales";
import { PageSkeleton } from "@/ui/PageSkeleton";
import { MAIN_CONTENT_ID, SkipLink } from "@/ui/SkipLink";
import { smartBannerCode } from "@/ui/smartBannerLoad";
import { storePlatformOf } from "@/ui/storePlatform";

// Toasts are never part of the first paint: their library loads right after it.
const AppToaster = lazy(() => import("@/ui/Toaster").then((module) => ({ default: module.AppToaster })));
// Go-live alerts of what a signed-in viewer follows, with their texts, after the first paint.
const LiveAlerts = lazy(() =>
  Promise.all([import("@/features/following/alerts/LiveAlerts"), loadNamespace("following")]).then(
    ([module]) => module,
  ),
);
// The survey (signed-in viewers only, when a form is configured) loads with its translations.
const SurveyPrompt = lazy(() =>
  Promise.all([import("@/features/survey/SurveyPrompt"), loadNamespace("survey")]).then(([module]) => ({
    default: module.SurveyPrompt,
  })),
);

const LAYOUTS: Record<LayoutName, (props: { children: ReactNode }) => ReactNode> = {
  home: HomeLayout,
  default: DefaultLayout,
  auth: AuthLayout,
  account: AccountLayout,
};

/**
 * After a navigation to another page (not a query or hash change, not the first load), keyboard
 * and screen-reader users start at the new page's content instead of wherever focus was left.
 * `preventScroll` leaves the scroll position to <ScrollRestoration/>.
 */
function useFocusMainOnPageChange(pathname: string): void {
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    document.getElementById(MAIN_CONTENT_ID)?.focus({ preventScroll: true });
  }, [pathname]);
}

/**
 * The root of every page: the skip link first (before the app banner, so it is the first thing
 * a keyboard reaches), the layout the matched route asks for, the locale of the URL, toasts.
 */
export function AppShell() {
  const matches = useMatches();
  const isAuthenticated = useIsAuthenticated();
  const { pathname } = useLocation();
  const locale = splitLocalePath(pathname).locale;
  const handle = [...matches].reverse().find((match) => (match.handle as RouteHandle | undefined)?.layout)?.handle as
    RouteHandle | undefined;
  const Layout = LAYOUTS[handle?.layout ?? "default"];

  useEffect(() => {
    void changeLocale(locale);
  }, [locale]);
  useFocusMainOnPageChange(pathname);
  const surveyOffered = Boolean(useAppConfig().survey.form_url) && isAuthenticated;
  // Only phones and tablets show the app banner; start-up loads its code with the first page there
  // (main.tsx), so it is part of the first render and does not push the page down later. Elsewhere
  // it is not rendered at all: its code would only be fetched, and the first render suspend, for nothing.
  const [SmartBanner] = useState(smartBannerCode.current);
  const routeName = (
    [...matches].reverse().find((match) => (match.handle as RouteHandle | undefined)?.name)?.handle as
      RouteHandle | undefined
  )?.name;

  return (
    <>
      <SkipLink />
      {storePlatformOf(navigator.userAgent) && (
        <Suspense fallback={null}>
          <SmartBanner />
        </Suspense>
      )}
      <Layout>
        <Suspense fallback={<PageSkeleton />}>
          <Outlet />
        </Suspense>
      </Layout>
      <Suspense fallback={null}>
        <AppToaster />
      </Suspense>
      {isAuthenticated && (
        <Suspense fallback={null}>
          <LiveAlerts />
        </Suspense>
      )}
      {surveyOffered && (
        <Suspense fallback={null}>
          <SurveyPrompt routeName={routeName} />
        </Suspense>
      )}
      <ScrollRestoration />
    </>
  );
}
