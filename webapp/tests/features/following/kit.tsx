import { PROFILE } from "../../support/profile";
import { render } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createMemoryRouter, RouterProvider, type RouteObject } from "react-router";
import type { ComponentType } from "react";
import type { components } from "@/api/schema.gen";
import { appConfigQuery, type AppConfig } from "@/lib/config";
import { mapUserProfile } from "@/entities/user";
import { emptySession, sessionStore } from "@/session/store";
import { appConfigFixture } from "../../support/appConfig";
import { setUpEnglish } from "../../support/i18n";

export { json, stubApi } from "../../support/fetchStub";

export const setUpI18n = () => setUpEnglish(["following", "errors", "common"]);

export function page<T>(entries: T[]) {
  return {
    error: false,
    message: "",
    content: {
      entryCount: entries.length,
      totalCount: entries.length,
      itemsPerPage: 100,
      startIndex: 0,
      count: entries.length,
      nextExists: false,
      entries,
    },
  };
}

export type ApiIdentity = components["schemas"]["Identity"];

export function identity(id: string, title: string, patch: Partial<ApiIdentity> = {}): ApiIdentity {
  return {
    _id: id,
    title,
    shortTitle: null,
    order: 0,
    archived: false,
    media_type: "identity_item",
    mainCategories: ["c00000000000000000000001"],
    media_parent_order: {},
    content: { PosterH: `/media/posters/${id}.png`, PosterF: null },
    extendedContent: { PosterF: [], MobilePosterF: [] },
    identityId: ["c00000000000000000000001"],
    socialMediasLinks: {},
    mediaParentIdentities: [],
    ...patch,
  } as ApiIdentity;
}

export { PROFILE };

export function signIn(): void {
  const now = Date.now();
  sessionStore.setState({
    ...emptySession(),
    user: mapUserProfile(PROFILE),
    token: "access-token",
    userTokenData: {
      token: "access-token",
      tokenExpirationTime: now + 3_600_000,
      tokenUpdateTime: now,
      refreshToken: "refresh-token",
    },
  });
}

export function resetSession(): void {
  sessionStore.setState(emptySession());
}

/** Mounts a page at a route (with a handle, as the app's routes have), signed in. */
export function renderPage(
  Page: ComponentType,
  {
    path,
    url,
    name = "page",
    config = appConfigFixture(),
  }: { path: string; url: string; name?: string; config?: AppConfig },
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(appConfigQuery.queryKey, config);
  const routes: RouteObject[] = [
    { path, element: <Page />, handle: { name, layout: "default" } },
    { path: "*", element: <p>elsewhere</p> },
  ];
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...result, router, queryClient };
}
