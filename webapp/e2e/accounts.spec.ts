import { expect, test, type Page } from "@playwright/test";
import { confirmSignUp } from "./mailbox";

const password = "a-long-enough-password-2026";

async function openUserMenu(page: Page) {
  await page
    .getByRole("button", { name: /account|menu|profile|user/i })
    .filter({ hasText: /.+/ })
    .first()
    .click();
}

test("sign up, log out and log in again", async ({ page }) => {
  const email = `viewer-${Date.now()}@example.com`;
  await page.goto("/auth/sign-up");
  await page.getByLabel(/name/i).first().fill("Ada Viewer");
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByLabel(/^password$/i).fill(password);
  await page.getByLabel(/confirm|repeat/i).fill(password);
  const consent = page.getByRole("checkbox");
  if (await consent.count()) await consent.first().check();
  await page.getByRole("button", { name: /sign up|create/i }).click();
  await confirmSignUp(page, email); // "check your mail", then the mailed link signs the account in

  // A new account goes on to personalization first (following.spec.ts covers that step).
  await expect(page).toHaveURL(/\/auth\/sign-up\/personalization/);
  await page.getByRole("button", { name: "Skip for now" }).click();
  await expect(page).not.toHaveURL(/\/auth\/sign-up/);
  await openUserMenu(page);
  await page
    .getByRole("menuitem", { name: /log ?out|sign ?out/i })
    .or(page.getByRole("button", { name: /log ?out|sign ?out/i }))
    .first()
    .click();
  await expect(page.getByRole("link", { name: /sign in|log in/i }).first()).toBeVisible();
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("ott-data") ?? "{}"));
  expect(stored.token ?? null).toBeNull();

  await page.goto("/auth/login");
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByLabel(/password/i).fill(password);
  await page.getByRole("button", { name: /sign in|log in/i }).click();
  await expect(page).not.toHaveURL(/\/auth\/login/);
  await expect(page.getByText("Ada Viewer").first()).toBeVisible();
});

test("a wrong password is shown next to the field", async ({ page }) => {
  await page.goto("/auth/login");
  await page.getByLabel(/e-?mail/i).fill("fan@touchline.test");
  await page.getByLabel(/password/i).fill("not-the-password");
  await page.getByRole("button", { name: /sign in|log in/i }).click();
  const field = page.getByLabel(/password/i);
  await expect(field).toHaveAttribute("aria-invalid", "true");
  const describedBy = (await field.getAttribute("aria-describedby")) ?? "";
  const message = page.locator(
    describedBy
      .split(" ")
      .map((id) => `[id="${id}"]`)
      .join(", "),
  );
  await expect(message.filter({ hasText: /wrong|incorrect|invalid/i })).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login/);
});

test("a login-required page sends an anonymous visitor to sign in and back", async ({ page }) => {
  await page.goto("/account/devices");
  await expect(page).toHaveURL(/\/auth\/login\/?\?redirect=%2Faccount%2Fdevices/);
  await page.getByLabel(/e-?mail/i).fill("fan@touchline.test");
  await page.getByLabel(/password/i).fill("touchline-fan-2026");
  await page.getByRole("button", { name: /sign in|log in/i }).click();
  await expect(page).toHaveURL(/\/account\/devices$/);
});

test("a session ended elsewhere sends the viewer to sign in with the session-expired message", async ({
  page,
  request,
}) => {
  await page.goto("/auth/login");
  await page.getByLabel(/e-?mail/i).fill("fan@touchline.test");
  await page.getByLabel(/password/i).fill("touchline-fan-2026");
  await page.getByRole("button", { name: /sign in|log in/i }).click();
  await expect(page).not.toHaveURL(/\/auth\/login/);

  // End the session on the server, as signing out on another device would; the page keeps its tokens.
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("ott-data") ?? "{}"));
  const token = stored.token ?? stored.userTokenData?.token;
  expect(token).toBeTruthy();
  const ended = await request.post("/api/user/logout", { headers: { Authorization: `Bearer ${token}` }, data: {} });
  expect(ended.ok()).toBe(true);

  await page.goto("/account");
  await expect(page).toHaveURL(/\/auth\/login\/?\?sessionExpired=true/);
  await expect(page.getByText(/session.*expired/i).first()).toBeVisible();
  const after = await page.evaluate(() => JSON.parse(localStorage.getItem("ott-data") ?? "{}"));
  expect(after.token ?? null).toBeNull();
});
