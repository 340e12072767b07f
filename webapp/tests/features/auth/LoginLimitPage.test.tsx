import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import LoginLimitPage from "@/features/auth/pages/LoginLimitPage";
import { decodeLimitData, encodeLimitData } from "@/features/auth/signIn/limitData";
import { sessionStore } from "@/session/store";
import {
  TICKET,
  atDeviceLimit,
  device,
  json,
  renderPage,
  resetSession,
  setUpI18n,
  signedIn,
  stubApi,
} from "./authTestKit";

const ROUTE = "/auth/login/limit";
const devices = [
  device("d1", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile"),
  device("d2", "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0"),
];
const data = encodeLimitData({ token: TICKET, provider: "credentials", username: "fan@touchline.test" });
const arrival = (redirect = "") => ({
  pathname: `${ROUTE}/`,
  search: `?data=${encodeURIComponent(data)}${redirect}`,
  state: { devices, limit: 2 },
});

beforeAll(setUpI18n);
beforeEach(resetSession);
afterEach(() => vi.unstubAllGlobals());

describe("the device-limit page", () => {
  it("lists the devices with their type and when they were last used", async () => {
    stubApi({});
    renderPage(LoginLimitPage, { path: `${ROUTE}/`, url: arrival() });
    expect(await screen.findByText("Signing in as fan@touchline.test")).toBeTruthy();
    expect(screen.getAllByRole("radio")).toHaveLength(2);
    expect(screen.getByText(/^Phone/)).toBeTruthy();
    expect(screen.getByText(/^Computer · Linux/)).toBeTruthy();
    expect(screen.getAllByText(/^Last used /)).toHaveLength(2);
  });

  it("asks which device to remove before removing any", async () => {
    const api = stubApi({});
    renderPage(LoginLimitPage, { path: `${ROUTE}/`, url: arrival() });
    await userEvent.setup().click(await screen.findByRole("button", { name: "Remove device and sign in" }));
    expect(await screen.findByText("Choose a device to remove.")).toBeTruthy();
    expect(document.activeElement).toBe(screen.getAllByRole("radio")[0]);
    expect(api.calls).toHaveLength(0);
  });

  it("removes the chosen device with the ticket as bearer, then completes the sign-in without the password", async () => {
    const api = stubApi({
      "POST /api/user/delete_device": () =>
        json({ content: { devices: [devices[0]], limit: 2 }, error: false, message: "" }),
      "POST /api/user/login/complete": () => json(signedIn()),
    });
    const { router } = renderPage(LoginLimitPage, {
      path: `${ROUTE}/`,
      url: arrival(`&redirect=${encodeURIComponent("/live")}`),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("radio", { name: /Computer/ }));
    await user.click(screen.getByRole("button", { name: "Remove device and sign in" }));

    await waitFor(() => expect(router.state.location.pathname).toBe("/live"));
    const [removal] = api.callsTo("POST /api/user/delete_device");
    expect(removal.headers.get("Authorization")).toBe(`Bearer ${TICKET}`);
    expect(await removal.json()).toEqual({ deviceId: "d2" });
    const [completion] = api.callsTo("POST /api/user/login/complete");
    expect(await completion.json()).toEqual({
      limit_ticket: TICKET,
      device_id: navigator.userAgent,
      device_name: navigator.userAgent,
      strategy: "refresh",
    });
    expect(api.calls.map((request) => new URL(request.url).pathname)).toEqual([
      "/api/user/delete_device",
      "/api/user/login/complete",
    ]);
    expect(sessionStore.getState().user?.fullName).toBe("Fan One");
  });

  it("stays with the new ticket when the account is still at its limit", async () => {
    const next = "lt_next_ticket_0123456789";
    stubApi({
      "POST /api/user/delete_device": () =>
        json({ content: { devices: [devices[0]], limit: 2 }, error: false, message: "" }),
      "POST /api/user/login/complete": () => json(atDeviceLimit([devices[0], device("d3", "Another browser")], next)),
    });
    const { router } = renderPage(LoginLimitPage, { path: `${ROUTE}/`, url: arrival() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("radio", { name: /Computer/ }));
    await user.click(screen.getByRole("button", { name: "Remove device and sign in" }));

    expect(
      await screen.findByText("Your account is still at its device limit. Choose another device to remove."),
    ).toBeTruthy();
    expect(decodeLimitData(new URLSearchParams(router.state.location.search).get("data"))?.token).toBe(next);
    // The list follows the new ticket in the address, a render after the alert on a busy machine.
    expect(await screen.findByText("Another browser")).toBeTruthy();
    expect(sessionStore.getState().token).toBeNull();
  });

  it("shows an expired ticket's error and the way back to sign-in", async () => {
    stubApi({
      "POST /api/user/delete_device": () =>
        json(
          {
            error: true,
            message: "The sign-in ticket has expired, please sign in again",
            messageErrorCode: "limit_ticket_invalid",
          },
          401,
        ),
    });
    renderPage(LoginLimitPage, { path: `${ROUTE}/`, url: arrival() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("radio", { name: /Phone/ }));
    await user.click(screen.getByRole("button", { name: "Remove device and sign in" }));
    expect((await screen.findByRole("alert")).textContent).toBe("This sign-in has expired. Please sign in again.");
    expect(screen.getByRole("link", { name: "Back to sign-in" }).getAttribute("href")).toBe("/auth/login/");
  });

  it("explains missing or damaged data and links back to sign-in", async () => {
    const api = stubApi({});
    renderPage(LoginLimitPage, { path: `${ROUTE}/`, url: `${ROUTE}/?data=bm90LWpzb24` });
    expect(await screen.findByText("This sign-in link is incomplete or damaged. Please sign in again.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Back to sign-in" })).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });

  it("opened without its devices (a copied link), spends the ticket only when the viewer asks, then lists the devices", async () => {
    const api = stubApi({
      "POST /api/user/login/complete": () => json(atDeviceLimit(devices, "lt_fresh_ticket_0123456789")),
    });
    renderPage(LoginLimitPage, { path: `${ROUTE}/`, url: `${ROUTE}/?data=${encodeURIComponent(data)}` });
    const signIn = await screen.findByRole("button", { name: "Sign in" });
    expect(api.callsTo("POST /api/user/login/complete")).toHaveLength(0);
    await userEvent.click(signIn);
    expect(await screen.findAllByRole("radio")).toHaveLength(2);
    expect(api.callsTo("POST /api/user/login/complete")).toHaveLength(1);
  });
});
