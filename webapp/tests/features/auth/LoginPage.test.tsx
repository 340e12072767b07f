import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import LoginPage from "@/features/auth/pages/LoginPage";
import { CALLBACK_MESSAGE_TYPE } from "@/features/auth/federated/callbackMessage";
import { decodeLimitData } from "@/features/auth/signIn/limitData";
import { BUSY_ATTEMPTS } from "@/features/auth/api/retryAfter";
import { sessionStore } from "@/session/store";
import {
  NO_PROVIDERS,
  TICKET,
  atDeviceLimit,
  device,
  json,
  renderPage,
  resetSession,
  setUpI18n,
  signedIn,
  stubApi,
  testConfig,
} from "./authTestKit";

const ROUTE = "/auth/login";

beforeAll(setUpI18n);
beforeEach(resetSession);
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function fillAndSubmit(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText("E-mail address"), email);
  await user.type(screen.getByLabelText("Password"), password);
  await user.click(screen.getByRole("button", { name: "Sign in" }));
}

describe("the sign-in form", () => {
  it("checks the e-mail format and asks for the password before sending anything", async () => {
    const api = stubApi({ "GET /api/oauth2/providers": NO_PROVIDERS });
    renderPage(LoginPage, { path: ROUTE, url: ROUTE });
    const user = userEvent.setup();

    await user.click(await screen.findByRole("button", { name: "Sign in" }));
    const email = screen.getByLabelText("E-mail address");
    expect(await screen.findByText("Enter your e-mail address.")).toBeTruthy();
    expect(screen.getByText("Enter your password.")).toBeTruthy();
    expect(email.getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(email);

    await user.type(email, "not-an-address");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByText("Enter a valid e-mail address, like name@example.com.")).toBeTruthy();
    expect(api.callsTo("POST /api/user/login")).toHaveLength(0);
  });

  it("shows invalid_credentials under the password field and focuses it", async () => {
    stubApi({
      "GET /api/oauth2/providers": NO_PROVIDERS,
      "POST /api/user/login": () =>
        json({ error: true, message: "Wrong username or password", messageErrorCode: "invalid_credentials" }, 401),
    });
    renderPage(LoginPage, { path: ROUTE, url: ROUTE });
    await fillAndSubmit("fan@touchline.test", "wrong-password");

    const message = await screen.findByText("Wrong email or password.");
    const password = screen.getByLabelText("Password");
    expect(password.getAttribute("aria-invalid")).toBe("true");
    expect(password.getAttribute("aria-describedby")).toContain(message.id);
    expect(document.activeElement).toBe(password);
  });

  it("says how long to wait after too many attempts (429 with Retry-After)", async () => {
    stubApi({
      "GET /api/oauth2/providers": NO_PROVIDERS,
      "POST /api/user/login": () =>
        json(
          { error: true, message: "Too many attempts, try again in 42 seconds", messageErrorCode: "too_many_requests" },
          429,
          { "Retry-After": "42" },
        ),
    });
    renderPage(LoginPage, { path: ROUTE, url: ROUTE });
    await fillAndSubmit("fan@touchline.test", "secret-password");
    expect((await screen.findByRole("alert")).textContent).toContain("Too many attempts. Try again in 42 seconds.");
  });

  describe("when the server is too busy to check the password (503 with Retry-After)", () => {
    const busy = () =>
      json(
        {
          error: true,
          message: "Too many sign-ins at once, please try again in a moment",
          messageErrorCode: "service_unavailable",
        },
        503,
        { "Retry-After": "1" },
      );

    it("asks again after the wait it was told, and signs in", async () => {
      let calls = 0;
      const api = stubApi({
        "GET /api/oauth2/providers": NO_PROVIDERS,
        "POST /api/user/login": () => (++calls === 1 ? busy() : json(signedIn())),
      });
      const { router } = renderPage(LoginPage, { path: ROUTE, url: `${ROUTE}?redirect=%2Flive` });
      const started = Date.now();
      await fillAndSubmit("fan@touchline.test", "touchline-fan-2026");
      await waitFor(() => expect(router.state.location.pathname).toBe("/live"), { timeout: 5000 });
      expect(api.callsTo("POST /api/user/login")).toHaveLength(2);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(screen.queryByRole("alert")).toBeNull();
    });

    it(`gives up after ${BUSY_ATTEMPTS} attempts and says so`, async () => {
      const api = stubApi({ "GET /api/oauth2/providers": NO_PROVIDERS, "POST /api/user/login": busy });
      renderPage(LoginPage, { path: ROUTE, url: ROUTE });
      await fillAndSubmit("fan@touchline.test", "touchline-fan-2026");
      expect(await screen.findByRole("alert", {}, { timeout: 8000 })).toBeTruthy();
      expect(api.callsTo("POST /api/user/login")).toHaveLength(BUSY_ATTEMPTS);
    });
  });

  it("signs in with the browser as device and goes to the ?redirect= path", async () => {
    const api = stubApi({ "GET /api/oauth2/providers": NO_PROVIDERS, "POST /api/user/login": () => json(signedIn()) });
    const { router } = renderPage(LoginPage, {
      path: ROUTE,
      url: `${ROUTE}?redirect=${encodeURIComponent("/events/42?tab=stats")}`,
    });
    await fillAndSubmit(" fan@touchline.test ", "touchline-fan-2026");

    await waitFor(() => expect(router.state.location.pathname).toBe("/events/42"));
    expect(router.state.location.search).toBe("?tab=stats");
    const body = await api.callsTo("POST /api/user/login")[0].json();
    expect(body).toEqual({
      username: "fan@touchline.test",
      password: "touchline-fan-2026",
      device_id: navigator.userAgent,
      device_name: navigator.userAgent,
      strategy: "refresh",
    });
    expect(sessionStore.getState().token).toBe("access-token-1");
  });

  it("ignores a ?redirect= to another site and goes home", async () => {
    stubApi({ "GET /api/oauth2/providers": NO_PROVIDERS, "POST /api/user/login": () => json(signedIn()) });
    const { router } = renderPage(LoginPage, {
      path: ROUTE,
      url: `${ROUTE}?redirect=${encodeURIComponent("//evil.test/steal")}`,
    });
    await fillAndSubmit("fan@touchline.test", "touchline-fan-2026");
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
  });

  it("tells why the viewer is here after the session expired or the device was removed", async () => {
    stubApi({ "GET /api/oauth2/providers": NO_PROVIDERS });
    renderPage(LoginPage, { path: ROUTE, url: `${ROUTE}?sessionExpired=true` });
    expect(await screen.findByText("Your session has expired. Please sign in again.")).toBeTruthy();
  });
});

describe("a sign-in stopped at the device limit", () => {
  const devices = [device("d1", "Phone browser"), device("d2", "Living-room laptop")];

  it("goes to /auth/login/limit/ with base64 JSON {token, provider, username} when the new flow is off", async () => {
    stubApi({ "GET /api/oauth2/providers": NO_PROVIDERS, "POST /api/user/login": () => json(atDeviceLimit(devices)) });
    const { router } = renderPage(LoginPage, { path: ROUTE, url: ROUTE });
    await fillAndSubmit("fan@touchline.test", "touchline-fan-2026");

    await waitFor(() => expect(router.state.location.pathname).toBe("/auth/login/limit/"));
    const data = new URLSearchParams(router.state.location.search).get("data");
    expect(decodeLimitData(data)).toEqual({ token: TICKET, provider: "credentials", username: "fan@touchline.test" });
    expect(router.state.location.state).toEqual({ devices, limit: 2 });
    expect(sessionStore.getState().token).toBeNull();
  });

  it("logs out and returns to /auth/login/?deviceNoLongerAllowedError=true with the new device-limit flow", async () => {
    stubApi({ "GET /api/oauth2/providers": NO_PROVIDERS, "POST /api/user/login": () => json(atDeviceLimit(devices)) });
    const { router } = renderPage(LoginPage, {
      path: "/auth/login/*",
      url: ROUTE,
      config: testConfig({ options: { new_device_limit_flow: true } }),
    });
    await fillAndSubmit("fan@touchline.test", "touchline-fan-2026");

    await waitFor(() => expect(router.state.location.search).toBe("?deviceNoLongerAllowedError=true"));
    expect(router.state.location.pathname).toBe("/auth/login/");
    expect(
      await screen.findByText("This device was removed from your account. Sign in again to use it here."),
    ).toBeTruthy();
    expect(sessionStore.getState().user).toBeNull();
  });
});

describe("sign-in providers", () => {
  const ifa = {
    provider: "ifa",
    flow: "authorization_code",
    client_id: "touchline-web",
    authorize_url: "http://127.0.0.1:9400/oauth2/authorize",
    redirect_uri: "http://localhost:3000/auth/oauth2/callback/ifa/",
    scope: "openid profile",
    sdk_version: null,
  };
  const facebook = {
    provider: "facebook",
    flow: "sdk",
    client_id: "1234567890",
    authorize_url: null,
    redirect_uri: null,
    scope: "email public_profile",
    sdk_version: "v15.0",
  };
  const listed = () => json({ content: { providers: [ifa, facebook], skipLogin: false }, error: false, message: "" });

  it("offers a button only for providers the server lists and the configuration enables", async () => {
    stubApi({ "GET /api/oauth2/providers": listed });
    renderPage(LoginPage, {
      path: ROUTE,
      url: ROUTE,
      config: testConfig({
        app_config: { enable_auth_via_ifa: true, enable_auth_via_google: true, enable_auth_via_facebook: false },
      }),
    });
    expect(await screen.findByRole("button", { name: "Continue with IFA" })).toBeTruthy();
    // Facebook is listed but switched off; Google is switched on but not configured on the server.
    expect(screen.queryByRole("button", { name: /Facebook/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /Google/ })).toBeNull();
  });

  it("shows no provider section when none is offered", async () => {
    stubApi({ "GET /api/oauth2/providers": listed });
    renderPage(LoginPage, { path: ROUTE, url: ROUTE });
    await screen.findByRole("button", { name: "Sign in" });
    await waitFor(() => expect(screen.queryByText("Or continue with")).toBeNull());
  });

  const ifaEnabled = testConfig({ app_config: { enable_auth_via_ifa: true } });

  function fakePopup() {
    const popup = { closed: false, location: { href: "" }, close: vi.fn(() => void (popup.closed = true)) };
    vi.spyOn(window, "open").mockReturnValue(popup as unknown as Window);
    return popup;
  }

  it("reports 'Popup was closed' when the popup closes without an answer", async () => {
    stubApi({ "GET /api/oauth2/providers": listed });
    const popup = fakePopup();
    renderPage(LoginPage, { path: ROUTE, url: ROUTE, config: ifaEnabled });
    await userEvent.setup().click(await screen.findByRole("button", { name: "Continue with IFA" }));
    await waitFor(() => expect(popup.location.href).toContain("code_challenge_method=S256"));

    popup.closed = true;
    expect(await screen.findByText("Popup was closed", {}, { timeout: 3000 })).toBeTruthy();
  });

  it("runs the ifa code flow: PKCE in the popup, state checked here, the code exchanged by the server", async () => {
    const api = stubApi({
      "GET /api/oauth2/providers": listed,
      "POST /api/oauth2/ifa/callback": () => json(signedIn(false, "ifa")),
    });
    const popup = fakePopup();
    const { router } = renderPage(LoginPage, { path: ROUTE, url: ROUTE, config: ifaEnabled });
    await userEvent.setup().click(await screen.findByRole("button", { name: "Continue with IFA" }));
    await waitFor(() => expect(popup.location.href).toMatch(/^http:\/\/127\.0\.0\.1:9400\/oauth2\/authorize\?/));

    const request = new URL(popup.location.href).searchParams;
    expect(request.get("response_type")).toBe("code");
    expect(request.get("client_id")).toBe("touchline-web");
    expect(request.get("redirect_uri")).toBe(ifa.redirect_uri);
    expect(request.get("scope")).toBe("openid profile");
    const state = request.get("state")!;
    window.dispatchEvent(
      new MessageEvent("message", {
        origin: window.location.origin,
        data: { type: CALLBACK_MESSAGE_TYPE, provider: "ifa", params: { code: "auth-code-1", state } },
      }),
    );

    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    const body = await api.callsTo("POST /api/oauth2/ifa/callback")[0].json();
    expect(body).toMatchObject({
      code: "auth-code-1",
      redirect_uri: ifa.redirect_uri,
      state,
      nonce: request.get("nonce"),
      strategy: "refresh",
    });
    const challenge = new Uint8Array(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body.code_verifier)),
    );
    const encoded = btoa(String.fromCharCode(...challenge))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    expect(request.get("code_challenge")).toBe(encoded);
    expect(body.device).toMatchObject({ id: navigator.userAgent, name: navigator.userAgent });
    expect(sessionStore.getState().userTokenData?.provider).toBe("ifa");
  });

  it("refuses an answer whose state is not this sign-in's with 'Login Failed'", async () => {
    const api = stubApi({ "GET /api/oauth2/providers": listed });
    const popup = fakePopup();
    renderPage(LoginPage, { path: ROUTE, url: ROUTE, config: ifaEnabled });
    await userEvent.setup().click(await screen.findByRole("button", { name: "Continue with IFA" }));
    await waitFor(() => expect(popup.location.href).not.toBe(""));
    window.dispatchEvent(
      new MessageEvent("message", {
        origin: window.location.origin,
        data: { type: CALLBACK_MESSAGE_TYPE, provider: "ifa", params: { code: "stolen", state: "someone-else" } },
      }),
    );
    expect(await screen.findByText("Login Failed")).toBeTruthy();
    expect(api.callsTo("POST /api/oauth2/ifa/callback")).toHaveLength(0);
  });
});
