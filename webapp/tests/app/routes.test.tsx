import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { act, render, screen, waitFor } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { createMemoryRouter, Outlet, RouterProvider, type RouteObject } from "react-router";
import { appConfigQuery } from "@/lib/config";
import { queryClient } from "@/lib/queryClient";
import { pageRoutes } from "@/app/routes";
import { initI18n } from "@/i18n";
import { testConfig } from "../ui/renderWithApp";

/** Every route object of a tree, depth first. */
function flatten(routes: RouteObject[]): RouteObject[] {
  return routes.flatMap((route) => [route, ...flatten(route.children ?? [])]);
}

/** An empty answer of any list or page the catalogue pages ask for. */
function emptyAnswer(): Response {
  const content = { entryCount: 0, totalCount: 0, itemsPerPage: 10, startIndex: 0, count: 0, nextExists: false };
  return new Response(JSON.stringify({ content: { ...content, entries: [] }, error: false, message: "" }), {
    headers: { "Content-Type": "application/json" },
  });
}

/** The app's page routes under "/" and "/:locale", as src/app/router.tsx mounts them, in a bare shell. */
function renderPages(url: string) {
  queryClient.setQueryData(appConfigQuery.queryKey, testConfig());
  const router = createMemoryRouter(
    [
      {
        path: "/",
        element: (
          <main>
            <Outlet />
          </main>
        ),
        children: [...pageRoutes(), { path: ":locale", children: pageRoutes() }],
      },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const main = () => screen.getByRole("main");

beforeAll(async () => void (await initI18n("en")));
beforeEach(() => vi.spyOn(globalThis, "fetch").mockImplementation(async () => emptyAnswer()));
afterEach(() => {
  vi.restoreAllMocks();
  queryClient.clear();
});

describe("the page routes", () => {
  it("give every route a lazy object of its own, under '/' and '/:locale' alike", () => {
    const routes = flatten([...pageRoutes(), ...pageRoutes()]).filter((route) => route.lazy);
    expect(routes.length).toBeGreaterThan(100);
    expect(new Set(routes.map((route) => route.lazy)).size).toBe(routes.length);
  });

  it("render both routes that share a page, each after the other was visited", async () => {
    const router = renderPages("/live");
    await waitFor(() => expect(main().textContent).not.toBe(""));
    const heading = screen.getByRole("heading", { level: 1 }).textContent;

    await act(() => router.navigate("/live/football"));
    await waitFor(() => expect(router.state.navigation.state).toBe("idle"));
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(heading);

    await act(() => router.navigate("/live"));
    await waitFor(() => expect(router.state.navigation.state).toBe("idle"));
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(heading);
  });

  it("render a page under a locale prefix after the same page was visited without one", async () => {
    const router = renderPages("/about");
    await waitFor(() => expect(screen.getByRole("heading", { level: 1 })).toBeTruthy());

    await act(() => router.navigate("/de/about"));
    await waitFor(() => expect(router.state.navigation.state).toBe("idle"));
    expect(screen.getByRole("heading", { level: 1 })).toBeTruthy();
  });
});
