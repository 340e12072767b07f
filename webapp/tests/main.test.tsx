import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, screen } from "@testing-library/react";
import { createMemoryRouter, type RouteObject } from "react-router";
import { QueryClient } from "@tanstack/react-query";
import i18n from "i18next";
import type * as I18nModule from "@/i18n";
import { API_PROFILE, fakeServer, ok, signIn } from "./session/fakeServer";

const CONFIG = {
  name_short: "Touchline",
  app_config: { socket_base: "/" },
  options: {},
  enable_white_theme: false,
  analytics: { enabled: false, tenant: "touchline" },
  error_reporting: { dsn: null, environment: "test", max_breadcrumbs: 25, max_events: 10 },
};

/** Boots src/main.tsx afresh in a page holding the loading frame (and the server's first answers). */
async function boot(path = "/", firstAnswers?: unknown[]) {
  window.history.replaceState(null, "", path);
  document.body.innerHTML = '<div id="root"><div class="boot" aria-busy="true"></div></div>';
  if (firstAnswers) {
    const block = document.createElement("script");
    block.type = "application/json";
    block.id = "first-answers";
    block.textContent = JSON.stringify(firstAnswers);
    document.body.append(block);
  }
  await act(async () => {
    running = (await import("@/main")).started;
  });
}

/**
 * The page the mocked router renders. A start-up that failed shows the error screen instead: the
 * failure then says what start-up logged, which the error screen does not.
 */
async function appRendered(): Promise<HTMLElement> {
  try {
    return await screen.findByText("app", {}, { timeout: 10_000 });
  } catch (error) {
    const logged = consoleError.mock.calls.map((call: unknown[]) =>
      call.map((part: unknown) => (part instanceof Error ? (part.stack ?? part.message) : String(part))).join(" "),
    );
    throw new Error(`The app did not render. Start-up logged: ${logged.join("\n") || "nothing"}`, { cause: error });
  }
}

/** The start-up of the test running now: the next test waits for it, so it never renders there. */
let running: Promise<void> | undefined;

let consoleError: ReturnType<typeof vi.spyOn>;

/** What the mocked router module holds: a test sets them before booting. One doMock of the
 * module, in beforeEach: a second one for the same module may be registered before the first. */
let routeTable: RouteObject[] = [];
let renderedRoutes: RouteObject[] = [];

beforeEach(() => {
  vi.resetModules();
  // No route code: the router only has to render something.
  routeTable = [];
  renderedRoutes = [{ path: "*", element: <p>app</p> }];
  vi.doMock("@/app/router", () => ({
    appRoutes: routeTable,
    createAppRouter: () => createMemoryRouter(renderedRoutes),
  }));
  // Failures are answers here, not glitches to retry for seconds.
  vi.doMock("@/lib/queryClient", () => ({
    queryClient: new QueryClient({ defaultOptions: { queries: { retry: false } } }),
  }));
  consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
});

/**
 * How long a test's start-up may go on after the test. One still running after its test would go on
 * with the real modules (the mocks are undone below) and render the real app into the next test's
 * page: on a busy machine a start-up took more than 10 s.
 */
const START_UP_SETTLES_MS = 30_000;

afterEach(async () => {
  if (running) await Promise.race([running, new Promise((resolve) => setTimeout(resolve, START_UP_SETTLES_MS))]);
  running = undefined;
  vi.doUnmock("@/app/router");
  vi.doUnmock("@/lib/queryClient");
  vi.doUnmock("@/i18n");
  vi.doUnmock("@/realtime/socket");
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.history.replaceState(null, "", "/");
}, START_UP_SETTLES_MS + 5_000);

describe("start-up", () => {
  it("shows a translated error screen that reloads when the configuration cannot load", async () => {
    fakeServer({ "GET /config": () => new Response("Bad gateway", { status: 502 }) });
    await boot("/de/");
    expect(
      await screen.findByRole("heading", { name: "Diese Seite konnte nicht geladen werden" }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.getByRole("button", { name: "Erneut versuchen" })).toBeTruthy();
    expect(document.querySelector(".boot")).toBeNull();
    expect(consoleError).toHaveBeenCalledWith("The app could not start:", expect.any(Error));
  });

  it("shows the error screen in English when the translations cannot load", async () => {
    vi.doMock("@/i18n", async (importOriginal) => ({
      ...(await importOriginal<typeof I18nModule>()),
      initI18n: () => Promise.reject(new TypeError("Failed to fetch dynamically imported module")),
    }));
    // i18next is one instance for the whole file: as if it had never come up in this page (it has
    // no such property before it first comes up, as when this test runs alone).
    if ("isInitialized" in i18n) vi.spyOn(i18n, "isInitialized", "get").mockReturnValue(false);
    fakeServer({ "GET /config": () => ok(CONFIG) });
    await boot("/de/");
    expect(
      await screen.findByRole("heading", { name: "This page could not be loaded" }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
  });

  it("starts from the configuration the page carries, without asking for it", async () => {
    vi.doMock("@/realtime/socket", () => ({ startRealtime: () => undefined }));
    const server = fakeServer({});
    await boot("/", [{ request: { method: "GET", path: "/config" }, answer: { content: CONFIG, error: false } }]);
    expect(await appRendered()).toBeTruthy();
    expect(server.callsTo("/config")).toEqual([]);
    expect(document.querySelector(".boot")).toBeNull();
  });

  it("signs a stored session's calls with its token", async () => {
    vi.doMock("@/realtime/socket", () => ({ startRealtime: () => undefined }));
    signIn();
    const server = fakeServer({
      "GET /config": () => ok(CONFIG),
      "POST /user/check_current_device": () => ok({ devices: [], enabled: true, limit: 5 }),
      "GET /user/get_profile": () => ok(API_PROFILE),
      "GET /follow/list_by_user": () => ok({ entries: [] }),
      "GET /user/get_watchlist_ids": () => ok({ selected: [] }),
    });
    await boot();
    // The start-up session check (spec §4) goes out with the stored token; /config is public.
    await vi.waitFor(() => expect(server.callsTo("/user/get_watchlist_ids")).toHaveLength(1), { timeout: 10_000 });
    // Every ask for it (the viewer's arrival may clear the cache once more) goes without a token.
    const configCalls = server.callsTo("/config");
    expect(configCalls.length).toBeGreaterThan(0);
    for (const call of configCalls) expect(call.authorization).toBeNull();
    // The session check's calls (other parts of start-up may ask for more, in either order).
    const check = ["/user/check_current_device", "/user/get_profile", "/user/get_watchlist_ids"];
    const checked = server.calls.filter((call) => check.includes(call.path));
    expect(new Set(checked.map((call) => call.path))).toEqual(new Set(check));
    for (const call of checked) expect(call.authorization).toBe("Bearer access-1");
    // Start-up ends with the first render (after the signed-in menu's code): it must not render
    // into the next test's page.
    expect(await appRendered()).toBeTruthy();
  });

  it("logs a failed download of the realtime code instead of leaving it unhandled", async () => {
    vi.doMock("@/realtime/socket", () => {
      throw new TypeError("Failed to fetch dynamically imported module");
    });
    fakeServer({ "GET /config": () => ok(CONFIG) });
    await boot();
    // Generous timeouts: the whole app module graph is imported fresh, slow on a busy machine.
    expect(await appRendered()).toBeTruthy();
    await vi.waitFor(
      () => expect(consoleError).toHaveBeenCalledWith("Could not load realtime updates:", expect.anything()),
      { timeout: 10_000 },
    );
  });

  describe("the first page's data", () => {
    /** When the prefetch was called: measured there, not when a poll notices (a busy event loop
     * can notice hundreds of milliseconds late). */
    let askedAt = 0;

    /** Routes whose one page's prefetch answers `data`; the page renders "app". */
    function routesPrefetching(data: () => Promise<void>) {
      const prefetch = vi.fn(() => {
        askedAt = performance.now();
        return data();
      });
      routeTable = renderedRoutes = [
        { path: "*", element: <p>app</p>, handle: { name: "index", layout: "home", prefetch } },
      ];
      vi.doMock("@/realtime/socket", () => ({ startRealtime: () => undefined }));
      fakeServer({ "GET /config": () => ok(CONFIG) });
      return prefetch;
    }

    it("is in before the first render, so the page renders once, with it", async () => {
      let arrive: () => void = () => undefined;
      const prefetch = routesPrefetching(() => new Promise<void>((resolve) => (arrive = resolve)));
      void boot();
      await vi.waitFor(() => expect(prefetch).toHaveBeenCalledTimes(1), { timeout: 10_000 });
      // The router and the page's code are long ready: still the loading frame while the data comes.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, askedAt + 300 - performance.now())));
      expect(screen.queryByText("app")).toBeNull();
      expect(document.querySelector(".boot")).not.toBeNull();
      act(() => arrive());
      expect(await appRendered()).toBeTruthy();
    });

    it("is waited for a second at most: a slow answer comes as an update", async () => {
      const prefetch = routesPrefetching(() => new Promise<void>(() => undefined));
      await boot();
      await vi.waitFor(() => expect(prefetch).toHaveBeenCalledTimes(1), { timeout: 10_000 });
      expect(await appRendered()).toBeTruthy();
      // The bound counts from when the page's code is ready, which is after the data was asked for.
      expect(performance.now() - askedAt).toBeGreaterThanOrEqual(900);
    });
  });
});
