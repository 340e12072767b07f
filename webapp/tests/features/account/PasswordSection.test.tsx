import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { screen } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import PasswordSection from "@/features/account/pages/PasswordSection";
import { renderWithApp, setUpI18n } from "../../ui/renderWithApp";
import { failure, ok, signIn, signOut, stubApi } from "./accountTestKit";

beforeAll(setUpI18n);
afterEach(() => {
  signOut();
  vi.unstubAllGlobals();
});

function renderPassword() {
  signIn();
  return renderWithApp(<PasswordSection />, {
    url: "/account/password",
    path: "/account/password",
    handle: { name: "account-password", layout: "account" },
  });
}

async function fill(user: UserEvent, current: string, next: string, repeat = next) {
  if (current) await user.type(screen.getByLabelText("Current password"), current);
  if (next) await user.type(screen.getByLabelText("New password"), next);
  if (repeat) await user.type(screen.getByLabelText("Repeat the new password"), repeat);
  await user.click(screen.getByRole("button", { name: "Change password" }));
}

describe("the password section", () => {
  it("checks the entries before sending anything", async () => {
    const api = stubApi({});
    renderPassword();
    const user = userEvent.setup();
    await fill(user, "", "short", "shorter");
    expect(await screen.findByText("Enter your current password.")).toBeTruthy();
    expect(screen.getByText("Use at least 8 characters.")).toBeTruthy();
    expect(screen.getByText("The passwords do not match.")).toBeTruthy();

    await user.clear(screen.getByLabelText("New password"));
    await user.type(screen.getByLabelText("Current password"), "same-password-1");
    await user.type(screen.getByLabelText("New password"), "same-password-1");
    await user.click(screen.getByRole("button", { name: "Change password" }));
    expect(await screen.findByText("The new password must differ from the current one.")).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });

  it("shows a wrong current password at its field", async () => {
    stubApi({
      "POST /api/user/change_password": () => failure(403, "wrong_password", "The current password is wrong"),
    });
    renderPassword();
    await fill(userEvent.setup(), "not-it", "a-new-password-2026");
    expect(await screen.findByText("The current password is wrong.")).toBeTruthy();
    expect(screen.getByLabelText("Current password").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByLabelText("New password").getAttribute("aria-invalid")).toBeNull();
  });

  it("changes the password, then offers to sign out the other sessions", async () => {
    const api = stubApi({
      "POST /api/user/change_password": () => ok({ otherSessions: 2 }),
      "POST /api/user/end_other_sessions": () => ok({ ended: 2 }),
    });
    renderPassword();
    const user = userEvent.setup();
    await fill(user, "the-old-password", "a-new-password-2026");

    expect(await screen.findByText("Your password has been changed.")).toBeTruthy();
    expect(await api.callsTo("POST /api/user/change_password")[0].json()).toEqual({
      current_password: "the-old-password",
      new_password: "a-new-password-2026",
    });
    expect((screen.getByLabelText("Current password") as HTMLInputElement).value).toBe("");
    expect(screen.getByText("Other sessions still signed in: 2. Sign them out too?")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Sign out other sessions" }));
    expect(await screen.findByText("Sessions signed out: 2. Only this one is still signed in.")).toBeTruthy();
    expect(api.callsTo("POST /api/user/end_other_sessions")).toHaveLength(1);
  });

  it("offers nothing more when there is no other session, and lets the viewer keep them", async () => {
    stubApi({ "POST /api/user/change_password": () => ok({ otherSessions: 0 }) });
    renderPassword();
    await fill(userEvent.setup(), "the-old-password", "a-new-password-2026");
    expect(await screen.findByText("Your password has been changed.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Sign out other sessions" })).toBeNull();
  });

  it("lets the viewer keep the other sessions", async () => {
    const api = stubApi({ "POST /api/user/change_password": () => ok({ otherSessions: 1 }) });
    renderPassword();
    const user = userEvent.setup();
    await fill(user, "the-old-password", "a-new-password-2026");
    await user.click(await screen.findByRole("button", { name: "Keep them signed in" }));
    expect(screen.queryByRole("button", { name: "Sign out other sessions" })).toBeNull();
    expect(screen.getByText("Your password has been changed.")).toBeTruthy();
    expect(api.callsTo("POST /api/user/end_other_sessions")).toHaveLength(0);
  });

  it("shows the rule under the new password, and a weak one refused by the server at that field", async () => {
    stubApi({
      "POST /api/user/change_password": () =>
        failure(400, "weak_password", "The password must not be one character repeated", [
          { field: "new_password", message: "The password must not be one character repeated", reason: "repeated" },
        ]),
    });
    renderPassword();
    const rule =
      "At least 8 characters. Not a common password, your e-mail address or name, or one character repeated.";
    expect(screen.getByText(rule)).toBeTruthy();
    await fill(userEvent.setup(), "the-old-password", "aaaaaaaa");
    expect(await screen.findByText("The password must not be one character repeated.")).toBeTruthy();
    expect(screen.getByLabelText("New password").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByLabelText("Current password").getAttribute("aria-invalid")).toBeNull();
  });

  it("shows a rate limit above the form", async () => {
    stubApi({
      "POST /api/user/change_password": () => failure(429, "too_many_requests", "Too many attempts, try again later"),
    });
    renderPassword();
    await fill(userEvent.setup(), "the-old-password", "a-new-password-2026");
    expect((await screen.findByRole("alert")).textContent).toBe("Too many attempts. Please try again later.");
  });
});
