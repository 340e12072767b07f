import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import ForgotPasswordPage from "@/features/auth/pages/ForgotPasswordPage";
import ResetPasswordPage from "@/features/auth/pages/ResetPasswordPage";
import { json, renderPage, setUpI18n, stubApi } from "./authTestKit";

const OK = () => json({ content: null, error: false, message: "" });
const TOKEN = "pr_Vb3kX9mQ2tL7wZc4Rn8Jd1Hf";

beforeAll(setUpI18n);
afterEach(() => vi.unstubAllGlobals());

describe("the forgot-password page", () => {
  it("sends the address and confirms in words that do not reveal whether an account exists", async () => {
    const api = stubApi({ "POST /api/user/password/forgot": OK });
    renderPage(ForgotPasswordPage, { path: "/auth/password/forgot", url: "/auth/password/forgot" });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("E-mail address"), "nobody@example.com");
    await user.click(screen.getByRole("button", { name: "Send the link" }));

    expect((await screen.findByRole("status")).textContent).toBe(
      "If an account uses nobody@example.com, a link to choose a new password is on its way. Check your inbox and your spam folder.",
    );
    expect(await api.callsTo("POST /api/user/password/forgot")[0].json()).toEqual({ email: "nobody@example.com" });
  });
});

describe("the reset-password page", () => {
  const url = `/auth/password/reset?token=${TOKEN}`;

  it("sends the token with the new password once both entries match", async () => {
    const api = stubApi({ "POST /api/user/password/reset": OK });
    renderPage(ResetPasswordPage, { path: "/auth/password/reset", url });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("New password"), "tr0ub4dor and more");
    await user.type(screen.getByLabelText("Repeat the password"), "tr0ub4dor and less");
    await user.click(screen.getByRole("button", { name: "Save the new password" }));
    expect(await screen.findByText("The two passwords are not the same.")).toBeTruthy();
    expect(api.calls).toHaveLength(0);

    await user.clear(screen.getByLabelText("Repeat the password"));
    await user.type(screen.getByLabelText("Repeat the password"), "tr0ub4dor and more");
    await user.click(screen.getByRole("button", { name: "Save the new password" }));
    expect(await screen.findByText("Your password has been changed. Sign in with your new password.")).toBeTruthy();
    expect(await api.callsTo("POST /api/user/password/reset")[0].json()).toEqual({
      token: TOKEN,
      password: "tr0ub4dor and more",
    });
  });

  it("says so when the link is used or expired, and offers a new one", async () => {
    stubApi({
      "POST /api/user/password/reset": () =>
        json(
          { error: true, message: "This reset link is no longer valid", messageErrorCode: "invalid_reset_token" },
          400,
        ),
    });
    renderPage(ResetPasswordPage, { path: "/auth/password/reset", url });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("New password"), "tr0ub4dor and more");
    await user.type(screen.getByLabelText("Repeat the password"), "tr0ub4dor and more");
    await user.click(screen.getByRole("button", { name: "Save the new password" }));
    expect(
      await screen.findByText("This reset link is no longer valid. It may have been used already or have expired."),
    ).toBeTruthy();
    expect(screen.getByRole("link", { name: "Ask for a new link" }).getAttribute("href")).toBe(
      "/auth/password/forgot/",
    );
  });

  it("explains a link without its token instead of showing the form", async () => {
    stubApi({});
    renderPage(ResetPasswordPage, { path: "/auth/password/reset", url: "/auth/password/reset" });
    expect(
      await screen.findByText(
        "This reset link is incomplete. Copy the whole link from the e-mail, or ask for a new one.",
      ),
    ).toBeTruthy();
    expect(screen.queryByLabelText("New password")).toBeNull();
  });
});
