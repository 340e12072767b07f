import { expect, test } from "@playwright/test";

test("switching to Hebrew renders the page right to left", async ({ page }) => {
  await page.goto("/live");
  await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
  await page.goto("/he/live");
  await expect(page.locator("html")).toHaveAttribute("lang", "he");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  // Links inside the Hebrew app keep the prefix.
  await expect(page.locator('header a[href^="/he/"]').first()).toBeVisible();
  const cookies = await page.context().cookies();
  const locale = cookies.find((cookie) => cookie.value === "he");
  expect(locale, "the locale cookie").toBeDefined();
  expect(locale!.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000);
});

test("the locale switcher keeps the page and swaps the prefix", async ({ page }) => {
  await page.goto("/upcoming");
  await page.getByLabel("Language").selectOption({ label: "Deutsch" });
  await expect(page).toHaveURL(/\/de\/upcoming$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
});
