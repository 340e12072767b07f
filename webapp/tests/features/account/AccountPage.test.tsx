import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import AccountPage from "@/features/account/AccountPage";
import { accountSectionOf } from "@/features/account/sections";
import { emptySession, sessionStore } from "@/session/store";
import type { UserProfile } from "@/entities/user";
import { renderWithApp, setUpI18n } from "../../ui/renderWithApp";

const logout = vi.hoisted(() => vi.fn(() => Promise.resolve()));
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

/** Node re-reads TZ when it is assigned; assigning undefined would set the string "undefined". */
function restoreZone(zone: string | undefined) {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
}
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

  it("counts membership from the day the account was created in the viewer's time zone", () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/Los_Angeles";
    try {
      // 03:00 UTC on 2 March is still the evening of 1 March in Los Angeles.
      act(() => sessionStore.setState({ token: "t", user: { ...viewer, added: "2025-03-02T03:00:00Z" } }));
      renderWithApp(<AccountPage />, {
        url: "/account",
        path: "/account",
        handle: { name: "account", layout: "auth" },
      });
      expect(screen.getByText("Member since March 1, 2025")).toBeTruthy();
    } finally {
      restoreZone(zone);
    }
  });

  it("titles the page with the e-mail address when the viewer has no name", () => {
    act(() => sessionStore.setState({ token: "t", user: { ...viewer, fullName: "" } }));
    renderWithApp(<AccountPage />, { url: "/account", path: "/account", handle: { name: "account", layout: "auth" } });
    expect(screen.getByRole("heading", { level: 1, name: "fan@touchline.test" })).toBeTruthy();
  });

  it("shows the date of birth as the calendar day it is, whatever the viewer's time zone", () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/Los_Angeles";
    try {
      act(() => sessionStore.setState({ token: "t", user: { ...viewer, dateOfBirth: "1990-05-01" } }));
      renderWithApp(<AccountPage />, {
        url: "/account/general",
        path: "/account/general",
        handle: { name: "account-general", layout: "auth" },
      });
      expect(screen.getByText("May 1, 1990")).toBeTruthy();
    } finally {
      restoreZone(zone);
    }
  });

  it("lists the six sections and marks the current one", () => {
    act(() => sessionStore.setState({ token: "t", user: viewer }));
    renderWithApp(<AccountPage />, {
      url: "/account/devices",
      path: "/account/devices",
      handle: { name: "account-devices", layout: "auth" },
    });
    const nav = screen.getByRole("navigation", { name: "Account sections" });
    const links = within(nav).getAllByRole("link");
    expect(links.map((link) => link.textContent)).toEqual([
      "General",
      "Password",
      "Devices",
      "Billing",
      "Subscriptions",
      "Pay-per-view",
    ]);
    expect(within(nav).getByRole("link", { name: "Devices" }).getAttribute("aria-current")).toBe("page");
    expect(screen.getByText(/not available yet/)).toBeTruthy();
  });

  it("shows the profile details in the general section", () => {
    act(() => sessionStore.setState({ token: "t", user: viewer }));
    renderWithApp(<AccountPage />, {
      url: "/account/general",
      path: "/account/general",
      handle: { name: "account-general", layout: "auth" },
    });
    expect(screen.getByText("Leeds")).toBeTruthy();
    expect(screen.getAllByText("Not set").length).toBeGreaterThan(0);
  });

  it("logs out and goes home", async () => {
    act(() => sessionStore.setState({ token: "t", user: viewer }));
    const { router } = renderWithApp(<AccountPage />, {
      url: "/account",
      path: "/account",
      handle: { name: "account", layout: "auth" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Log out" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(logout).toHaveBeenCalledOnce();
  });
});
