import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMemoryRouter } from "react-router";
import { appConfigQuery } from "@/lib/config";
import { NotFoundError } from "@/lib/errors";
import { queryClient } from "@/lib/queryClient";
import { appRoutes } from "@/app/router";
import { initI18n } from "@/i18n";
import { testConfig } from "../ui/renderWithApp";

/** Where the router ends up for a URL, and the error of the deepest route that failed. */
async function navigate(url: string, redirects: { path: string; to: string }[] = []) {
  queryClient.setQueryData(appConfigQuery.queryKey, testConfig({ redirects }));
  const router = createMemoryRouter(appRoutes, { initialEntries: [url] });
  await new Promise<void>((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => state.initialized && (stop(), resolve()));
  });
  const errors = Object.values(router.state.errors ?? {});
  const location = router.state.location;
  router.dispose();
  return { path: location.pathname + location.search, error: errors[0] };
}

// Pages load their messages with their code: the app's own i18n set-up must have run.
beforeAll(async () => void (await initI18n("en")));
afterEach(() => queryClient.clear());

describe("the router", () => {
  it("applies a redirect rule to an old address that is no longer a page", async () => {
    expect((await navigate("/old/path", [{ path: "/old/path", to: "/live" }])).path).toBe("/live");
  });

  it("applies redirect rules under a locale prefix too, keeping the prefix", async () => {
    expect((await navigate("/de/watch", [{ path: "/watch", to: "/live" }])).path).toBe("/de/live");
  });

  it("answers an unknown path with 'Page not found: {path}'", async () => {
    const { error } = await navigate("/no/such/page");
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toBe("Page not found: /no/such/page");
  });

  it("sends an anonymous visitor of the account area to sign in", async () => {
    expect((await navigate("/fr/account/devices")).path).toBe("/fr/auth/login/?redirect=%2Faccount%2Fdevices");
  });
});
