import type { ReactNode } from "react";
import { Suspense } from "react";
import { render } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createMemoryRouter, RouterProvider, useRouteError } from "react-router";
import { createInstance } from "i18next";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { appConfigQuery, type AppConfig } from "@/lib/config";
import { NotFoundError } from "@/lib/errors";
import catalog from "@/i18n/locales/en/catalog.json";
import common from "@/i18n/locales/en/common.json";
import errors from "@/i18n/locales/en/errors.json";
import event from "@/i18n/locales/en/event.json";
import following from "@/i18n/locales/en/following.json";
import stats from "@/i18n/locales/en/stats.json";
import { testConfig } from "./fixtures";

/** Stands in for the app's route error screen: says which not-found context was thrown. */
function RouteError() {
  const error = useRouteError();
  return (
    <p role="alert">{error instanceof NotFoundError ? `not found: ${error.context}` : `failed: ${String(error)}`}</p>
  );
}

/** A router, a fresh query cache with the given config, and the English texts of the catalogue pages. */
export async function renderPage(
  element: ReactNode,
  { path = "/", route = "/", config = testConfig() }: { path?: string; route?: string; config?: AppConfig } = {},
) {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: "en",
    ns: ["catalog", "event", "errors", "common", "following", "stats"],
    defaultNS: "catalog",
    resources: { en: { catalog, event, errors, common, following, stats } },
    interpolation: { escapeValue: false },
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  queryClient.setQueryData(appConfigQuery.queryKey, config);
  const router = createMemoryRouter(
    [
      { path, element, errorElement: <RouteError /> },
      { path: "*", element: <p>elsewhere</p> },
    ],
    { initialEntries: [route] },
  );
  const result = render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <Suspense fallback={null}>
          <RouterProvider router={router} />
        </Suspense>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { ...result, router, queryClient };
}
