import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { newViewer, signInOnPage } from "./event-support";

/*
 * The account area (/account): the profile, the password, the devices (with the device limit and
 * the socket's remove-user-device), deleting the account. Every test has an account of its own.
 */

/** A desktop browser string with a marker: each browser context is a device of its own. */
const userAgent = (marker: string) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 ${marker}`;

async function storedToken(page: Page): Promise<string | null> {
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("ott-data") ?? "{}"));
  return stored.token ?? null;
}

async function apiSignIn(request: APIRequestContext, email: string, password: string, device: string) {
  return request.post("/api/user/login", {
    data: { username: email, password, device_id: device, device_name: device, strategy: "refresh" },
  });
}

test("editing the profile validates first, saves, and shows the new values after a reload", async ({
  page,
  request,
}) => {
  const viewer = await newViewer(request, "ada-profile");
  await signInOnPage(page, viewer, "/account/general");
  await expect(page.getByRole("heading", { level: 2, name: "General" })).toBeVisible();
  const name = page.getByLabel("Full name");
  await expect(name).toHaveValue("ada-profile");
  await expect(page.getByLabel("E-mail", { exact: true })).toHaveValue(viewer.email);

  // Checked before anything is sent.
  await name.fill("  ");
  await page.getByLabel("Phone").fill("call me");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Enter your name.")).toBeVisible();
  await expect(page.getByText(/Enter a phone number/)).toBeVisible();

  await name.fill("Ada Edited");
  await page.getByLabel("Phone").fill("+44 20 7946 0000");
  await page.getByLabel("City").fill("Leeds");
  await page.getByLabel("Postal code").fill("LS1 4AP");
  await page.getByLabel("Country").fill("United Kingdom");
  await page.getByLabel("Gender").selectOption("female");
  await page.getByLabel("Date of birth").fill("1990-05-01");
  // The favourite sport (identity) and one of its leagues (identityItem), from the catalogue.
  await expect(page.getByLabel("Favourite league")).toBeDisabled();
  await page.getByLabel("Favourite sport").selectOption({ label: "Football" });
  await page.getByLabel("Favourite league").selectOption({ label: "Southern Championship" });
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Your profile has been saved.")).toBeVisible();
  // The summary above the sections follows the session's user.
  await expect(page.getByRole("heading", { level: 1, name: "Ada Edited" })).toBeVisible();

  const profile = await request.get("/api/user/get_profile", { headers: { Authorization: `Bearer ${viewer.token}` } });
  const saved = (await profile.json()).content;
  expect(saved).toMatchObject({
    displayName: "Ada Edited",
    phone: "+44 20 7946 0000",
    city: "Leeds",
    postalCode: "LS1 4AP",
    countryName: "United Kingdom",
    gender: "female",
    dateOfBirth: "1990-05-01",
  });
  expect(saved.identityItem).toMatch(/^[0-9a-f]{24}$/);

  await page.reload();
  await expect(page.getByLabel("Full name")).toHaveValue("Ada Edited");
  await expect(page.getByLabel("Gender")).toHaveValue("female");
  await expect(page.getByLabel("Date of birth")).toHaveValue("1990-05-01");
  await expect(page.getByLabel("Favourite sport").locator("option:checked")).toHaveText("Football");
  await expect(page.getByLabel("Favourite league").locator("option:checked")).toHaveText("Southern Championship");

  // Clearing a field stores nothing for it.
  await page.getByLabel("City").fill("");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Your profile has been saved.")).toBeVisible();
  const cleared = await request.get("/api/user/get_profile", { headers: { Authorization: `Bearer ${viewer.token}` } });
  expect((await cleared.json()).content.city).toBeNull();

  // Hebrew: the same section, right to left.
  await page.goto("/he/account/general");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { level: 2, name: "כללי" })).toBeVisible();
  await expect(page.getByLabel("שם מלא")).toHaveValue("Ada Edited");
});

test("(7) device limit: a second device removes the first, and the socket signs the first out", async ({
  browser,
  request,
}) => {
  const viewer = await newViewer(request, "devi-limit"); // registering used one device
  const firstContext = await browser.newContext({ userAgent: userAgent("TouchlineFirstDevice") });
  const secondContext = await browser.newContext({ userAgent: userAgent("TouchlineSecondDevice") });
  try {
    const first = await firstContext.newPage();
    await signInOnPage(first, viewer, "/account/devices");
    // A device shows its browser and system; its full identification string is its title.
    const own = first.getByRole("listitem").filter({ has: first.locator('[title*="TouchlineFirstDevice"]') });
    await expect(own.getByText("This device", { exact: true })).toBeVisible();
    await expect(own.getByRole("button", { name: "Remove" })).toHaveCount(0);

    // Fill the account up to its limit (TOUCHLINE_DEVICE_LIMIT, 5) from three more devices.
    for (const n of [1, 2, 3]) {
      const answer = await apiSignIn(request, viewer.email, viewer.password, `touchline-api-device-${n}`);
      expect(answer.ok()).toBe(true);
      expect((await answer.json()).content.device_error ?? null).toBeNull();
    }
    await first.reload();
    await expect(first.getByText("Devices in use: 5 of 5")).toBeVisible();

    // The sixth device must choose one to remove: it removes the first.
    const second = await secondContext.newPage();
    await second.goto("/auth/login");
    await second.getByLabel(/e-?mail/i).fill(viewer.email);
    await second.getByLabel(/password/i).fill(viewer.password);
    await second.getByRole("button", { name: /sign in|log in/i }).click();
    await expect(second).toHaveURL(/\/auth\/login\/limit/);
    await second.getByRole("radio", { name: /TouchlineFirstDevice/ }).check();
    await second.getByRole("button", { name: "Remove device and sign in" }).click();
    await expect(second).not.toHaveURL(/\/auth\/login/);

    // The first device hears remove-user-device and is signed out without doing anything.
    await expect(first).toHaveURL(/\/auth\/login\/?\?deviceNoLongerAllowedError=true/, { timeout: 15_000 });
    expect(await storedToken(first)).toBeNull();

    // The second device lists itself as current, no longer the first, and removes another one.
    await second.goto("/account/devices");
    const mine = second.getByRole("listitem").filter({ has: second.locator('[title*="TouchlineSecondDevice"]') });
    await expect(mine.getByText("This device", { exact: true })).toBeVisible();
    await expect(second.locator('[title*="TouchlineFirstDevice"]')).toHaveCount(0);
    await expect(second.getByText("Devices in use: 5 of 5")).toBeVisible();
    await second
      .getByRole("listitem")
      .filter({ hasText: "touchline-api-device-1" })
      .getByRole("button", { name: "Remove" })
      .click();
    await second
      .getByRole("dialog", { name: "Remove this device?" })
      .getByRole("button", { name: "Remove device" })
      .click();
    await expect(second.getByText("touchline-api-device-1")).toHaveCount(0);
    await expect(second.getByText("Devices in use: 4 of 5")).toBeVisible();
  } finally {
    await firstContext.close();
    await secondContext.close();
  }
});

test("(8) change the password, end the other sessions, and sign in with the new password", async ({
  page,
  request,
}) => {
  const viewer = await newViewer(request, "pat-password");
  const newPassword = "a-brand-new-password-2026";
  await signInOnPage(page, viewer, "/account/password");
  await expect(page.getByRole("heading", { level: 2, name: "Password" })).toBeVisible();

  // Checked before sending: too short, then not repeated the same.
  await page.getByLabel("Current password").fill(viewer.password);
  await page.getByLabel("New password", { exact: true }).fill("short");
  await page.getByLabel("Repeat the new password").fill("different");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Use at least 8 characters.")).toBeVisible();
  await expect(page.getByText("The passwords do not match.")).toBeVisible();

  // A wrong current password is shown at its field.
  const current = page.getByLabel("Current password");
  await current.fill("not-my-password");
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Repeat the new password").fill(newPassword);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(current).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("The current password is wrong.")).toBeVisible();

  await current.fill(viewer.password);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Your password has been changed.")).toBeVisible();
  // Registering opened a session of its own: the answer's otherSessions.
  await expect(page.getByText("Other sessions still signed in: 1. Sign them out too?")).toBeVisible();
  await page.getByRole("button", { name: "Sign out other sessions" }).click();
  await expect(page.getByText("Sessions signed out: 1.", { exact: false })).toBeVisible();
  const ended = await request.get("/api/user/get_profile", { headers: { Authorization: `Bearer ${viewer.token}` } });
  expect(ended.status()).toBe(401);

  // This session stayed signed in; log out and sign in with the new password.
  await page.goto("/account/general");
  await expect(page.getByRole("heading", { level: 2, name: "General" })).toBeVisible();
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/");
  expect(await storedToken(page)).toBeNull();
  const old = await apiSignIn(request, viewer.email, viewer.password, "touchline-old-password");
  expect(old.ok()).toBe(false);
  await signInOnPage(page, { email: viewer.email, password: newPassword }, "/account/password");
});

test("(9) delete the account after confirming, then signing in fails", async ({ page, request }) => {
  const viewer = await newViewer(request, "del-account");
  await signInOnPage(page, viewer, "/account");
  await page.getByRole("button", { name: "Delete my account" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await expect(dialog).toBeVisible();
  for (const lost of [/pay-per-view purchases/, /subscriptions/, /clips/, /watchlist/, /follow/])
    await expect(dialog.getByRole("listitem").filter({ hasText: lost })).toBeVisible();

  // Cancel first: nothing happens.
  await dialog.getByRole("button", { name: "Keep my account" }).click();
  await expect(dialog).toHaveCount(0);
  expect(await storedToken(page)).not.toBeNull();

  await page.getByRole("button", { name: "Delete my account" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete for good" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/");
  await expect(page.getByText("Your account has been deleted.")).toBeVisible();
  expect(await storedToken(page)).toBeNull();

  const again = await apiSignIn(request, viewer.email, viewer.password, "touchline-after-deletion");
  expect(again.ok()).toBe(false);
  await page.goto("/auth/login");
  await page.getByLabel(/e-?mail/i).fill(viewer.email);
  await page.getByLabel(/password/i).fill(viewer.password);
  await page.getByRole("button", { name: /sign in|log in/i }).click();
  await expect(page.getByText("Wrong email or password.").first()).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login/);
});
