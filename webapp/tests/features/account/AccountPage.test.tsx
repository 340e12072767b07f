import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import AccountPage from "@/features/account/AccountPage";
import { accountSectionOf } from "@/features/account/sections";
import { emptySession, sessionStore } from "@/session/store";
import type { UserProfile } from "@/entities/user";
import { renderWithApp, setUpI18n } from "../../ui/renderWithApp";

const logout = vi.hoisted(() => vi.fn(async () => {}));
vi.mock("@/session/auth", () => ({ logout }));

const viewer = {
  id: "u1",
  added: "2025-03-02T10:00:00Z",
  email: "fan@touchline.test",
  fullName: "Alex Fan",
  city: "Leeds",
  phone: null,
  postalCode: null,
  countryName: null,
  dateOfBirth: null,
} as UserProfile;

beforeAll(setUpI18n);
afterEach(() => act(() => sessionStore.setState(emptySession())));

describe("accountSectionOf", () => {
  it("finds the section of every account route, general for /account itself", () => {
    expect(accountSectionOf("account")).toBe("general");
    expect(accountSectionOf("account-ppv-id")).toBe("ppv");
    expect(accountSectionOf("account-subscription-buy-id")).toBe("subscription");
    expect(accountSectionOf("account-devices")).toBe("devices");
  });
});

describe("AccountPage", () => {
  it("summarises the viewer: name, e-mail and member since", () => {
    act(() => sessionStore.setState({ token: "t", user: viewer }));
    renderWithApp(<AccountPage />, { url: "/account", path: "/account", handle: { name: "account", layout: "auth" } });
    expect(screen.getByRole("heading", { level: 1, name: "Alex Fan" })).toBeTruthy();
    expect(screen.getByText("fan@touchline.test", { selector: "p" })).toBeTruthy();
    expect(screen.getByText("Member since March 2, 2025")).toBeTruthy();
  });

  it("lists the six sections and marks the current one", () => {
    act(() => sessionStore.setState({ token: "t", user: viewer }));
    renderWithApp(<AccountPage />, { url: "/account/devices", path: "/account/devices", handle: { name: "account-devices", layout: "auth" } });
    const nav = screen.getByRole("navigation", { name: "Account sections" });
    const links = within(nav).getAllByRole("link");
    expect(links.map((link) => link.textContent)).toEqual(["General", "Password", "Devices", "Billing", "Subscriptions", "Pay-per-view"]);
    expect(within(nav).getByRole("link", { name: "Devices" }).getAttribute("aria-current")).toBe("page");
    expect(screen.getByText(/not available yet/)).toBeTruthy();
  });

  it("shows the profile details in the general section", () => {
    act(() => sessionStore.setState({ token: "t", user: viewer }));
    renderWithApp(<AccountPage />, { url: "/account/general", path: "/account/general", handle: { name: "account-general", layout: "auth" } });
    expect(screen.getByText("Leeds")).toBeTruthy();
    expect(screen.getAllByText("Not set").length).toBeGreaterThan(0);
  });

  it("logs out and goes home", async () => {
    act(() => sessionStore.setState({ token: "t", user: viewer }));
    const { router } = renderWithApp(<AccountPage />, { url: "/account", path: "/account", handle: { name: "account", layout: "auth" } });
    fireEvent.click(screen.getByRole("button", { name: "Log out" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(logout).toHaveBeenCalledOnce();
  });
});
