import { PROFILE } from "../../support/profile";
import { render } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createMemoryRouter, RouterProvider, type InitialEntry } from "react-router";
import type { ComponentType } from "react";
import { appConfigQuery, type AppConfig } from "@/lib/config";
import type { components } from "@/api/schema.gen";
import { emptySession, sessionStore } from "@/session/store";
import { appConfigFixture } from "../../support/appConfig";
import { json } from "../../support/fetchStub";
import { setUpEnglish } from "../../support/i18n";

export { json, stubApi } from "../../support/fetchStub";

export const setUpI18n = () => setUpEnglish(["auth", "errors"]);

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

export { PROFILE };

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
