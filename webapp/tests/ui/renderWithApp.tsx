import type { ReactElement } from "react";
import { render } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createMemoryRouter, RouterProvider, type RouteObject } from "react-router";
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { appConfigQuery, type AppConfig } from "@/lib/config";
import type { RouteHandle } from "@/lib/routeTypes";
import { appConfigFixture } from "../support/appConfig";

// The English texts of the chrome's namespaces, as the app ships them.
const english = import.meta.glob<Record<string, unknown>>("/src/i18n/locales/en/*.json", {
  eager: true,
  import: "default",
});

/** Test fixtures for the `errors` namespace: the chrome only needs these keys to exist. */
export const ERROR_TEXTS = {
  page_not_found: "Page not found",
  could_not_find_page: "We could not find the page you were looking for.",
  event_not_found: "Event not found",
  could_not_find_event: "We could not find this event.",
  info_not_found: "Information page not found",
  could_not_find_info: "We could not find this information page.",
  an_error_occurred: "An error occurred",
};

export async function setUpI18n(): Promise<void> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      lng: "en",
      fallbackLng: "en",
      ns: ["common", "info", "errors"],
      defaultNS: "common",
      interpolation: { escapeValue: false },
      initAsync: false,
    });
  }
  for (const [path, bundle] of Object.entries(english)) {
    const ns = path.split("/").pop()!.replace(".json", "");
    i18n.addResourceBundle("en", ns, bundle, true, true);
  }
  i18n.addResourceBundle("en", "errors", ERROR_TEXTS, true, true);
  if (i18n.language !== "en") await i18n.changeLanguage("en");
}

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return appConfigFixture({
    device_limit: 3,
    options: { real_kickoff: false },
    smart_banner: {
      enabled: true,
      android_url: "https://play.google.com/store/apps/details?id=com.example.touchline",
      ios_url: "https://apps.apple.com/app/id0000000000",
      closed_cookie_minutes: 60,
    },
    store_url_hosts: ["play.google.com", "apps.apple.com"],
    locales: ["en", "de"],
    ...overrides,
  });
}

interface RenderOptions {
  /** The URL the memory router starts at. */
  url?: string;
  /** The route pattern the element is mounted at (parameters are read from the URL). */
  path?: string;
  handle?: RouteHandle;
  config?: AppConfig;
}

/**
 * Renders an element inside a memory router, the query cache (holding the configuration) and
 * English translations. `router.state.location` tells where a navigation went.
 */
export function renderWithApp(
  element: ReactElement,
  { url = "/", path = "*", handle, config = testConfig() }: RenderOptions = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(appConfigQuery.queryKey, config);
  const routes: RouteObject[] = [
    { path, element, handle },
    // Links and navigations may leave the element's route: land somewhere harmless.
    ...(path === "*" ? [] : [{ path: "*", element: null }]),
  ];
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...result, router, queryClient };
}
