import { expect, test, type Page } from "@playwright/test";
import { confirmSignUp } from "./mailbox";
import { commerceOptions, listEvents, videoTime } from "./event-support";

/**
 * The journey of a new viewer (issue 15, test 1): sign up on the page, personalize by following
 * two leagues, buy a live pay-per-view match with the sandbox's success card, and the match plays.
 */
const password = "a-long-enough-password-2026";
const LEAGUES = ["Northern Premier Division", "Southern Championship"];

async function follow(page: Page, name: string) {
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/follow/save") && r.ok());
  await page.getByRole("button", { name: `Follow ${name}`, exact: true }).click();
  await saved;
}

test("sign up, follow two leagues, buy a live pay-per-view match, and it plays", async ({ page, request }) => {
  test.setTimeout(120_000);
  const live = await listEvents(request, { status: ["live"], media_type: ["event"] });
  let target: { eventId: string; productId: string } | null = null;
  // The last of the list: the buying tests take the first ones.
  for (const game of [...live].reverse()) {
    if (game.commerce_type !== "commerce_ppv_media") continue;
    const options = await commerceOptions(request, game._id);
    const product = options.products.find((item) => item.type === "ppv" && item.event_id === game._id);
    if (product) {
      target = { eventId: game._id, productId: product._id };
      break;
    }
  }
  expect(target, "a live pay-per-view game in the seed").not.toBeNull();
  const { eventId } = target!;

  await page.goto("/auth/sign-up");
  await page.getByLabel(/name/i).first().fill("Nia New");
  const email = `journey-${Date.now()}@example.com`;
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByLabel(/^password$/i).fill(password);
  await page.getByLabel(/confirm|repeat/i).fill(password);
  await page.getByRole("checkbox").first().check();
  await page.getByRole("button", { name: /sign up|create/i }).click();
  await confirmSignUp(page, email);

  await expect(page).toHaveURL(/\/auth\/sign-up\/personalization\/?$/);
  for (const league of LEAGUES) await follow(page, league);
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto(`/events/${eventId}`);
  await expect(page.getByRole("region", { name: "Watch this match" })).toBeVisible();
  await page.getByRole("link", { name: /Buy this match/ }).click();
  await expect(page.getByRole("heading", { name: "Buy this match" })).toBeVisible();
  await page.getByLabel("Card number").fill("4242424242424242");
  await page.getByLabel("Expiry date").fill(`12/${String(new Date().getFullYear() + 3).slice(-2)}`);
  await page.getByLabel("Security code (CVC)").fill("123");
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect(page).toHaveURL(/\/payment\/success/);
  await page.getByRole("link", { name: "Watch the match" }).click();
  await expect(page).toHaveURL((url) => url.pathname === `/events/${eventId}`);
  await expect(page.getByRole("region", { name: "Watch this match" })).toHaveCount(0);
  await expect.poll(() => videoTime(page), { timeout: 30_000 }).toBeGreaterThan(0);
});
