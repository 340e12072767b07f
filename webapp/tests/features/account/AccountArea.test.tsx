import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import AccountArea from "@/app/layouts/AccountArea";
import { accountSectionOf } from "@/features/account/sections";
import { renderWithApp, setUpI18n } from "../../ui/renderWithApp";
import { signIn, signOut } from "./accountTestKit";

const logout = vi.hoisted(() => vi.fn(() => Promise.resolve()));
vi.mock("@/session/auth", () => ({ logout }));

beforeAll(setUpI18n);
afterEach(signOut);

/** Node re-reads TZ when it is assigned; assigning undefined would set the string "undefined". */
function restoreZone(zone: string | undefined) {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
}

function renderArea(section: string, content = <p>section content</p>) {
  const url = section === "account" ? "/account" : `/account/${section.replace(/^account-/, "")}`;
  return renderWithApp(<AccountArea>{content}</AccountArea>, {
    url,
    path: url,
    handle: { name: section, layout: "account" },
  });
}

describe("accountSectionOf", () => {
  it("finds the section of every account route, general for /account itself", () => {
    expect(accountSectionOf("account")).toBe("general");
    expect(accountSectionOf("account-ppv-id")).toBe("ppv");
    expect(accountSectionOf("account-subscription-buy-id")).toBe("subscription");
    expect(accountSectionOf("account-devices")).toBe("devices");
  });
});

describe("the account layout's area", () => {
  it("summarises the viewer around the section: name, e-mail and member since", () => {
    signIn();
    renderArea("account");
    expect(screen.getByRole("heading", { level: 1, name: "Alex Fan" })).toBeTruthy();
    expect(screen.getByText("fan@touchline.test", { selector: "p" })).toBeTruthy();
    expect(screen.getByText("Member since March 2, 2025")).toBeTruthy();
    expect(screen.getByText("section content")).toBeTruthy();
  });

  it("counts membership from the day the account was created in the viewer's time zone", () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/Los_Angeles";
    try {
      // 03:00 UTC on 2 March is still the evening of 1 March in Los Angeles.
      signIn({ added: "2025-03-02T03:00:00Z" });
      renderArea("account");
      expect(screen.getByText("Member since March 1, 2025")).toBeTruthy();
    } finally {
      restoreZone(zone);
    }
  });

  it("names the viewer by e-mail address when they have no name", () => {
    signIn({ fullName: "" });
    renderArea("account");
    expect(screen.getByRole("heading", { level: 1, name: "fan@touchline.test" })).toBeTruthy();
  });

  it("lists the six sections in order and marks the current one", () => {
    signIn();
    renderArea("account-devices");
    const nav = screen.getByRole("navigation", { name: "Account sections" });
    const links = within(nav).getAllByRole("link");
    expect(links.map((link) => [link.textContent, link.getAttribute("href")])).toEqual([
      ["General", "/account/general"],
      ["Password", "/account/password"],
      ["Devices", "/account/devices"],
      ["Billing", "/account/billing"],
      ["Subscriptions", "/account/subscription"],
      ["Pay-per-view", "/account/ppv"],
    ]);
    expect(within(nav).getByRole("link", { name: "Devices" }).getAttribute("aria-current")).toBe("page");
    expect(within(nav).getByRole("link", { name: "General" }).getAttribute("aria-current")).toBeNull();
  });

  it("logs out and goes home", async () => {
    signIn();
    const { router } = renderArea("account");
    fireEvent.click(screen.getByRole("button", { name: "Log out" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(logout).toHaveBeenCalledOnce();
  });

  it("asks a signed-out visitor to sign in instead of showing a section", () => {
    renderArea("account");
    expect(screen.getByText("Sign in to see your account.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/auth/login");
    expect(screen.queryByText("section content")).toBeNull();
  });
});
