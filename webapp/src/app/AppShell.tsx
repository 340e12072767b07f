import { Suspense, lazy, useEffect, type ReactNode } from "react";
import { Outlet, ScrollRestoration, useLocation, useMatches } from "react-router";
import type { LayoutName, RouteHandle } from "./routes";
import { HomeLayout } from "./layouts/HomeLayout";
import { DefaultLayout } from "./layouts/DefaultLayout";
import { AuthLayout } from "./layouts/AuthLayout";
import { changeLocale } from "@/i18n";
import { splitLocalePath } from "@/i18n/locales";
import { PageSkeleton } from "@/ui/PageSkeleton";

// Toasts are never part of the first paint: their library loads right after it.
const AppToaster = lazy(() => import("@/ui/Toaster").then((module) => ({ default: module.AppToaster })));
// Only phones show the app banner; nobody waits for it.
const SmartBanner = lazy(() => import("@/ui/SmartBanner").then((module) => ({ default: module.SmartBanner })));

const LAYOUTS: Record<LayoutName, (props: { children: ReactNode }) => ReactNode> = {
  home: HomeLayout,
  default: DefaultLayout,
  auth: AuthLayout,
};

/** The root of every page: the layout the matched route asks for, the locale of the URL, toasts. */
export function AppShell() {
  const matches = useMatches();
  const { pathname } = useLocation();
  const locale = splitLocalePath(pathname).locale;
  const handle = [...matches].reverse().find((match) => (match.handle as RouteHandle | undefined)?.layout)?.handle as
    | RouteHandle
    | undefined;
  const Layout = LAYOUTS[handle?.layout ?? "default"];

  useEffect(() => {
    void changeLocale(locale);
  }, [locale]);

  return (
    <>
      <Suspense fallback={null}>
        <SmartBanner />
      </Suspense>
      <Layout>
        <Suspense fallback={<PageSkeleton />}>
          <Outlet />
        </Suspense>
      </Layout>
      <Suspense fallback={null}>
        <AppToaster />
      </Suspense>
      <ScrollRestoration />
    </>
  );
}
