import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import ResetPasswordPage from "@/features/auth/pages/ResetPasswordPage";
import SignUpPage from "@/features/auth/pages/SignUpPage";
import { NO_PROVIDERS, json, renderPage, resetSession, setUpI18n, stubApi } from "./authTestKit";

const RULE = "At least 8 characters. Not a common password, your e-mail address or name, or one character repeated.";

function weak(reason: string, field = "password") {
  const message = "The server's own words";
  return () =>
    json({ error: true, message, messageErrorCode: "weak_password", details: [{ field, message, reason }] }, 400);
}

/** The texts that describe an input (its hint, then its error). */
function description(input: HTMLElement): string[] {
  return (input.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? "");
}

beforeAll(setUpI18n);
beforeEach(resetSession);
afterEach(() => vi.unstubAllGlobals());

describe("a password the server refuses as weak", () => {
  it("is explained by the rule under the sign-up password before anything is sent", async () => {
    stubApi({ "GET /api/oauth2/providers": NO_PROVIDERS });
    renderPage(SignUpPage, { path: "/auth/sign-up", url: "/auth/sign-up" });
    expect(description(await screen.findByLabelText("Password"))).toEqual([RULE]);
  });

  it("is shown at the sign-up password field, in the viewer's words for the reason", async () => {
    stubApi({ "GET /api/oauth2/providers": NO_PROVIDERS, "POST /api/user/register": weak("personal") });
    renderPage(SignUpPage, { path: "/auth/sign-up", url: "/auth/sign-up" });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Full name"), "Ada Lovelace");
    await user.type(screen.getByLabelText("E-mail address"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "ada@example.com");
    await user.type(screen.getByLabelText("Repeat the password"), "ada@example.com");
    await user.click(screen.getByRole("checkbox"));
    await user.click(screen.getByRole("button", { name: "Create account" }));

    const password = screen.getByLabelText("Password");
    expect(await screen.findByText("The password must not contain your e-mail address or name.")).toBeTruthy();
    expect(password.getAttribute("aria-invalid")).toBe("true");
    expect(description(password)).toEqual([RULE, "The password must not contain your e-mail address or name."]);
    expect(document.activeElement).toBe(password);
  });

  it("is shown at the reset page's new password field", async () => {
    stubApi({ "POST /api/user/password/reset": weak("common") });
    renderPage(ResetPasswordPage, {
      path: "/auth/password/reset",
      url: "/auth/password/reset?token=pr_Vb3kX9mQ2tL7wZc4Rn8Jd1Hf",
    });
    const user = userEvent.setup();
    const password = await screen.findByLabelText("New password");
    expect(description(password)).toEqual([RULE]);
    await user.type(password, "password123");
    await user.type(screen.getByLabelText("Repeat the password"), "password123");
    await user.click(screen.getByRole("button", { name: "Save the new password" }));

    expect(
      await screen.findByText("This password is too common or too easy to guess. Choose a longer or less common one."),
    ).toBeTruthy();
    expect(password.getAttribute("aria-invalid")).toBe("true");
  });
});
