import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import SignUpPage from "@/features/auth/pages/SignUpPage";
import { sessionStore } from "@/session/store";
import { NO_PROVIDERS, json, renderPage, resetSession, setUpI18n, stubApi } from "./authTestKit";

const ROUTE = "/auth/sign-up";

beforeAll(setUpI18n);
beforeEach(resetSession);
afterEach(() => vi.unstubAllGlobals());

async function fill(fields: { name?: string; email?: string; password?: string; confirm?: string; terms?: boolean }) {
  const user = userEvent.setup();
  if (fields.name) await user.type(await screen.findByLabelText("Full name"), fields.name);
  if (fields.email) await user.type(screen.getByLabelText("E-mail address"), fields.email);
  if (fields.password) await user.type(screen.getByLabelText("Password"), fields.password);
  if (fields.confirm) await user.type(screen.getByLabelText("Repeat the password"), fields.confirm);
  if (fields.terms) await user.click(screen.getByRole("checkbox"));
  await user.click(screen.getByRole("button", { name: "Create account" }));
}

describe("the sign-up form", () => {
  it("checks every field before registering and focuses the first one in error", async () => {
    const api = stubApi({ "GET /api/oauth2/providers": NO_PROVIDERS });
    renderPage(SignUpPage, { path: ROUTE, url: ROUTE });
    await fill({});

    expect(await screen.findByText("Enter your full name.")).toBeTruthy();
    expect(screen.getByText("Enter your e-mail address.")).toBeTruthy();
    expect(screen.getByText("Enter your password.")).toBeTruthy();
    expect(screen.getByText("Enter the password a second time.")).toBeTruthy();
    expect(screen.getByText("Accept the terms of use and the privacy policy to create an account.")).toBeTruthy();
    expect(screen.getByRole("checkbox").getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(screen.getByLabelText("Full name"));
    expect(api.callsTo("POST /api/user/register")).toHaveLength(0);
  });

  it("refuses a short password, a bad address and two different passwords", async () => {
    const api = stubApi({ "GET /api/oauth2/providers": NO_PROVIDERS });
    renderPage(SignUpPage, { path: ROUTE, url: ROUTE });
    await fill({ name: "Ada Lovelace", email: "ada@", password: "short", confirm: "different", terms: true });

    expect(await screen.findByText("Enter a valid e-mail address, like name@example.com.")).toBeTruthy();
    expect(screen.getByText("Use at least 8 characters.")).toBeTruthy();
    expect(screen.getByText("The two passwords are not the same.")).toBeTruthy();
    expect(api.callsTo("POST /api/user/register")).toHaveLength(0);
  });

  it("registers and says to check the mail, signing nobody in; signing up again sends a new link", async () => {
    const sent = { content: { status: "verification_sent" }, error: false, message: "" };
    const api = stubApi({
      "GET /api/oauth2/providers": NO_PROVIDERS,
      "POST /api/user/register": () => json(sent, 202),
    });
    renderPage(SignUpPage, { path: ROUTE, url: ROUTE });
    await fill({
      name: "  Ada Lovelace  ",
      email: "ada@example.com",
      password: "correct horse",
      confirm: "correct horse",
      terms: true,
    });

    expect(await screen.findByRole("heading", { name: "Check your e-mail" })).toBeTruthy();
    expect(screen.getByText(/We sent a link to ada@example.com/)).toBeTruthy();
    expect(await api.callsTo("POST /api/user/register")[0].json()).toEqual({
      email: "ada@example.com",
      password: "correct horse",
      displayName: "Ada Lovelace",
      device_id: navigator.userAgent,
      device_name: navigator.userAgent,
      strategy: "refresh",
    });
    expect(sessionStore.getState().token).toBeNull();

    await userEvent.setup().click(screen.getByRole("button", { name: "Send the link again" }));
    expect(await screen.findByText("A new link is on its way.")).toBeTruthy();
    const again = api.callsTo("POST /api/user/register");
    expect(again).toHaveLength(2); // signing up again: the new link carries the password typed here
    expect(await again[1].json()).toMatchObject({ email: "ada@example.com", password: "correct horse" });
  });
});
