import { render } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createMemoryRouter, RouterProvider, type InitialEntry } from "react-router";
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { vi } from "vitest";
import type { ComponentType } from "react";
import { appConfigQuery, type AppConfig } from "@/lib/config";
import type { components } from "@/api/schema.gen";
import { emptySession, sessionStore } from "@/session/store";
import { appConfigFixture } from "../../support/appConfig";

// The English texts the auth pages use, as the app ships them.
const english = import.meta.glob<Record<string, unknown>>("/src/i18n/locales/en/{auth,errors}.json", {
  eager: true,
  import: "default",
});

export async function setUpI18n(): Promise<void> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      lng: "en",
      fallbackLng: "en",
      ns: ["auth", "errors"],
      defaultNS: "auth",
      interpolation: { escapeValue: false },
      initAsync: false,
    });
  }
  for (const [path, bundle] of Object.entries(english)) {
    i18n.addResourceBundle("en", path.split("/").pop()!.replace(".json", ""), bundle, true, true);
  }
}

export function testConfig(
  patch: { options?: Partial<AppConfig["options"]>; app_config?: Partial<AppConfig["app_config"]> } = {},
): AppConfig {
  return appConfigFixture({ ...patch, device_limit: 2 });
}

/** Mounts one auth page at its route; `router.state.location` tells where it navigated. */
export function renderPage(
  Page: ComponentType,
  { path, url, config = testConfig() }: { path: string; url: InitialEntry; config?: AppConfig },
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(appConfigQuery.queryKey, config);
  const router = createMemoryRouter(
    [
      { path, element: <Page /> },
      { path: "*", element: <p>elsewhere</p> },
    ],
    { initialEntries: [url] },
  );
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...result, router };
}

export function resetSession(): void {
  sessionStore.setState(emptySession());
}

type Handler = (request: Request) => Response | Promise<Response>;

/** Stubs fetch with answers by "METHOD /api/path"; anything else fails the test loudly. */
export function stubApi(handlers: Record<string, Handler>) {
  const calls: Request[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    calls.push(request.clone());
    const key = `${request.method} ${new URL(request.url).pathname}`;
    const handler = handlers[key];
    if (!handler) return json({ error: true, message: `unexpected ${key}`, messageErrorCode: "not_found" }, 404);
    return handler(request);
  });
  vi.stubGlobal("fetch", fetchStub);
  return {
    calls,
    callsTo: (key: string) => calls.filter((request) => `${request.method} ${new URL(request.url).pathname}` === key),
  };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}

type Device = components["schemas"]["Device"];

export function device(id: string, name: string, updated = "2026-11-20T18:00:00Z"): Device {
  return {
    _id: id,
    added: "2026-10-01T10:00:00Z",
    updated,
    deviceId: name,
    deviceName: name,
    osName: "Linux",
    osVersion: null,
  };
}

export const PROFILE: components["schemas"]["Profile"] = {
  userId: "5f1c0a8e2b3d4c5e6f7a8b01",
  added: "2026-01-01T00:00:00Z",
  email: "fan@touchline.test",
  displayName: "Fan One",
  city: null,
  gender: null,
  dateOfBirth: null,
  phone: null,
  countryName: null,
  postalCode: null,
  globalTags: false,
  clubList: [],
  options: {},
  identity: null,
  identityItem: null,
  role: "viewer",
} as components["schemas"]["Profile"];

export function signedIn(isRegister = false, provider: components["schemas"]["SignInProvider"] = "credentials") {
  return {
    content: {
      profile: PROFILE,
      tokenData: { access_token: "access-token-1", expires_in: 900, refresh_token: "refresh-token-1" },
      devices: [device("d1", navigator.userAgent)],
      device_error: null,
    },
    auth_data: { isRegister, provider },
    error: false,
    message: "",
  };
}

export const TICKET = "lt_ticket_0123456789abcdef";

export function atDeviceLimit(
  devices: Device[],
  ticket = TICKET,
  provider: components["schemas"]["SignInProvider"] = "credentials",
) {
  return {
    content: {
      profile: null,
      tokenData: null,
      devices,
      device_error: {
        code: "device_limit_exceeded",
        message: "Device Limit Exceeded",
        limit: devices.length,
        limit_ticket: ticket,
        limit_ticket_expires_in: 300,
      },
    },
    auth_data: { isRegister: false, provider },
    error: false,
    message: "",
  };
}

export const NO_PROVIDERS = () => json({ content: { providers: [], skipLogin: false }, error: false, message: "" });
