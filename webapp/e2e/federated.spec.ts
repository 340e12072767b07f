import { expect, test } from "@playwright/test";

// The server of these tests runs in development, where `touchline serve` starts a local OpenID
// Connect provider for the federation's sign-on (ifa): the whole popup flow is real.

test("signing in with the federation's sign-on in a popup", async ({ page }) => {
  // The size the page asks window.open for (Playwright's popups take the context's viewport).
  await page.addInitScript(() => {
    const open = window.open.bind(window);
    window.open = (url?: string | URL, target?: string, features?: string) => {
      (window as unknown as { openFeatures?: string }).openFeatures = features;
      return open(url, target, features);
    };
  });
  await page.goto("/auth/login/?redirect=%2Fupcoming");
  const [popup] = await Promise.all([
    page.waitForEvent("popup"),
    page.getByRole("button", { name: "Continue with IFA" }).click(),
  ]);
  const features = await page.evaluate(() => (window as unknown as { openFeatures?: string }).openFeatures ?? "");
  const size = Object.fromEntries(features.split(",").map((pair) => pair.trim().split("=")));
  expect(Number(size.width)).toBeGreaterThanOrEqual(512);
  expect(Number(size.height)).toBeGreaterThanOrEqual(730);
  await popup.locator('input[name="sub"]').fill(`fan-${Date.now()}`);
  await popup.getByRole("button", { name: "Authorize" }).click();
  // A first sign-in is a registration (auth_data.isRegister): personalization, then on to the redirect.
  await expect(page).toHaveURL(/\/auth\/sign-up\/personalization\/\?redirect=%2Fupcoming$/);
  await page.getByRole("button", { name: "Skip for now" }).click();
  await expect(page).toHaveURL(/\/upcoming$/);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("ott-data") ?? "{}"));
  expect(stored.token).toBeTruthy();
});

test("closing the sign-on popup says so", async ({ page }) => {
  await page.goto("/auth/login/");
  const [popup] = await Promise.all([
    page.waitForEvent("popup"),
    page.getByRole("button", { name: "Continue with IFA" }).click(),
  ]);
  await popup.close();
  await expect(page.getByText("Popup was closed")).toBeVisible();
});

test("refusing consent in the sign-on popup is a failed login", async ({ page }) => {
  await page.goto("/auth/login/");
  const [popup] = await Promise.all([
    page.waitForEvent("popup"),
    page.getByRole("button", { name: "Continue with IFA" }).click(),
  ]);
  await popup.getByRole("button", { name: "Deny" }).click();
  await expect(page.getByText("Login Failed")).toBeVisible();
});
