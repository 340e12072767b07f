import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import DevicesSection from "@/features/account/pages/DevicesSection";
import { sessionStore } from "@/session/store";
import { renderWithApp, setUpI18n } from "../../ui/renderWithApp";
import { device, failure, ok, signIn, signOut, stubApi } from "./accountTestKit";

beforeAll(setUpI18n);
afterEach(() => {
  signOut();
  vi.unstubAllGlobals();
});

const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";

function renderDevices() {
  signIn();
  return renderWithApp(<DevicesSection />, {
    url: "/account/devices",
    path: "/account/devices",
    handle: { name: "account-devices", layout: "account" },
  });
}

describe("the devices section", () => {
  it("lists the devices with this browser marked current and without a Remove button", async () => {
    stubApi({
      "GET /api/user/get_devices": () =>
        ok({ devices: [device("d1", navigator.userAgent), device("d2", PHONE)], limit: 5 }),
    });
    renderDevices();
    expect(await screen.findByText("Devices in use: 2 of 5")).toBeTruthy();
    const [mine, phone] = screen.getAllByRole("listitem");
    expect(within(mine).getByText("This device")).toBeTruthy();
    expect(within(mine).queryByRole("button", { name: "Remove" })).toBeNull();
    expect(within(phone).queryByText("This device")).toBeNull();
    expect(within(phone).getByText(/^Phone · Linux/)).toBeTruthy();
    expect(within(phone).getByRole("button", { name: "Remove" })).toBeTruthy();
    expect(sessionStore.getState().devices.map((item) => item.isCurrent)).toEqual([true, false]);
  });

  it("names the system and browser instead of showing the identification string", async () => {
    const linux =
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    stubApi({
      "GET /api/user/get_devices": () =>
        ok({ devices: [device("d1", navigator.userAgent), { ...device("d2", linux), osName: null }], limit: 5 }),
    });
    renderDevices();
    const [, desktop] = await screen.findAllByRole("listitem");
    expect(within(desktop).getByText("Computer · Linux")).toBeTruthy();
    expect(within(desktop).getByText("Chrome 131").getAttribute("title")).toBe(linux);
    expect(within(desktop).queryByText("Unknown system")).toBeNull();
  });

  it("removes another device and shows the devices left", async () => {
    const api = stubApi({
      "GET /api/user/get_devices": () =>
        ok({ devices: [device("d1", navigator.userAgent), device("d2", PHONE)], limit: 5 }),
      "POST /api/user/delete_device": () => ok({ devices: [device("d1", navigator.userAgent)], limit: 5 }),
    });
    renderDevices();
    const phone = (await screen.findAllByRole("listitem"))[1];
    const user = userEvent.setup();
    await user.click(within(phone).getByRole("button", { name: "Remove" }));
    // Nothing is removed before the viewer confirms, and Cancel removes nothing.
    expect(screen.getByRole("dialog", { name: "Remove this device?" })).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(api.callsTo("POST /api/user/delete_device")).toHaveLength(0);
    await user.click(within(phone).getByRole("button", { name: "Remove" }));
    await user.click(screen.getByRole("button", { name: "Remove device" }));

    expect(await screen.findByText("Devices in use: 1 of 5")).toBeTruthy();
    expect(screen.getAllByRole("listitem")).toHaveLength(1);
    expect(await api.callsTo("POST /api/user/delete_device")[0].json()).toEqual({ deviceId: "d2" });
    expect(sessionStore.getState().devices).toHaveLength(1);
  });

  it("says why a removal failed at the device", async () => {
    stubApi({
      "GET /api/user/get_devices": () =>
        ok({ devices: [device("d1", navigator.userAgent), device("d2", PHONE)], limit: 5 }),
      "POST /api/user/delete_device": () => failure(404, "device_not_found", "Device not found"),
    });
    renderDevices();
    const phone = (await screen.findAllByRole("listitem"))[1];
    const user = userEvent.setup();
    await user.click(within(phone).getByRole("button", { name: "Remove" }));
    await user.click(screen.getByRole("button", { name: "Remove device" }));
    expect(await within(screen.getByRole("dialog")).findByText("Device not found.")).toBeTruthy();
  });

  it("offers to try again when the list cannot load", async () => {
    let attempts = 0;
    stubApi({
      "GET /api/user/get_devices": () =>
        ++attempts === 1
          ? failure(400, "validation_error", "Bad")
          : ok({ devices: [device("d1", navigator.userAgent)], limit: 5 }),
    });
    renderDevices();
    await userEvent.setup().click(await screen.findByRole("button", { name: "Try again" }));
    expect(await screen.findByText("Devices in use: 1 of 5")).toBeTruthy();
  });
});
