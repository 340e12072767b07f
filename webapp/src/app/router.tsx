import { createBrowserRouter, type RouteObject } from "react-router";
import { AppShell } from "./AppShell";
import { RouteErrorScreen } from "./RouteErrorScreen";
import { localeLoader } from "./localeLoader";
import { pageRoutes } from "./routes";
import { PageSkeleton } from "@/ui/PageSkeleton";

/** Pages at "/" for English and again under "/:locale" for the other 13 locales. */
export const appRoutes: RouteObject[] = [
  {
    path: "/",
    element: <AppShell />,
    errorElement: <RouteErrorScreen />,
    // The first page's loader (config, guards) runs before anything renders.
    hydrateFallbackElement: <PageSkeleton />,
    children: [
      ...pageRoutes(),
      { path: ":locale", loader: localeLoader, errorElement: <RouteErrorScreen />, children: pageRoutes() },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(appRoutes);
}
