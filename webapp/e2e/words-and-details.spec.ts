import { expect, test, type Page } from "@playwright/test";

/**
 * Words, languages and details (issue 25 §5): the language a visitor chose is remembered, a first
 * visit follows the browser's language, paths that are no page answer 404 (and still show the
 * not-found screen, with the footer), and plan texts use each language's plural forms.
 */

const languagePicker = (page: Page) => page.getByRole("banner").getByRole("combobox", { name: /^(Language|Sprache)$/ });

test("the language chosen in the picker is remembered: the home page opens in it again", async ({ page }) => {
  await page.goto("/upcoming");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await languagePicker(page).selectOption({ label: "Deutsch" });
  await expect(page).toHaveURL(/\/de\/upcoming$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");

  // A later visit to an address without language prefix: the server sends it to the German page.
  const answer = await page.goto("/");
  await expect(page).toHaveURL(/\/de\/$/);
  expect(answer?.status()).toBe(200);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");

  // Choosing English again is remembered too.
  await languagePicker(page).selectOption({ label: "English" });
  await expect(page).toHaveURL((url) => url.pathname === "/");
  await page.goto("/live");
  await expect(page).toHaveURL((url) => url.pathname === "/live");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
});

test.describe("a first visit from a browser set to Polish", () => {
  test.use({ locale: "pl-PL" });

  test("opens in Polish", async ({ page }) => {
    await page.goto("/live");
    await expect(page).toHaveURL(/\/pl\/live$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "pl");
  });
});

test("a path that is no page answers 404 and shows the not-found screen with the footer", async ({ page, request }) => {
  const answer = await page.goto("/no-such-page");
  expect(answer?.status()).toBe(404);
  await expect(page.getByText("Page not found: /no-such-page")).toBeVisible();
  const footer = page.getByRole("contentinfo");
  await expect(footer).toBeVisible();
  // The footer works like anywhere else: its links lead to the app's pages.
  await footer.getByRole("link", { name: "About" }).click();
  await expect(page).toHaveURL(/\/about\/?$/);

  expect((await request.get("/events/ffffffffffffffffffffffff")).status()).toBe(404);
  expect((await request.get("/de/nothing/here")).status()).toBe(404);
  expect((await request.get("/live")).status()).toBe(200);
});

test("the home page has the footer", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("contentinfo").getByRole("link", { name: "Privacy" })).toBeVisible();
});

test("plans in German read with German plurals, never template text", async ({ page }) => {
  await page.goto("/de/auth/sign-up/subscription");
  const plans = page.getByRole("main").getByRole("listitem");
  await expect(plans.first()).toBeVisible();
  const text = (await page.getByRole("main").innerText()).replace(/\s+/g, " ");
  expect(text).not.toMatch(/{{|}}|\(e\)|\(n\)|\(s\)/);
  // Monthly passes: one month; league passes: every match of one league.
  await expect(page.getByText("1 Monat", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("Jedes Spiel von 1 Liga", { exact: true }).first()).toBeVisible();
  // The pass that names no league unlocks all of them, and the plans describe themselves in German.
  await expect(page.getByText("Jedes Spiel aller Ligen", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("Jedes Abo-Spiel aller Ligen.", { exact: true })).toBeVisible();
  // In-app on to redeeming a code, which asks a visitor to sign in first: still in German.
  await page.getByRole("link", { name: "Zugangscode einlösen" }).click();
  await expect(page).toHaveURL(/\/de\/auth\/login\/\?redirect=%2Fauth%2Fsign-up%2Fsubscription%2Fcode/);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
});
