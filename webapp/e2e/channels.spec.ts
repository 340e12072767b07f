import { expect, test, type Page } from "@playwright/test";
import { newViewer, signInOnPage } from "./event-support";
import { expectPlaying, playerVideo } from "./player-support";

const FREE_CHANNEL = "Touchline Sports 24";
const SUBSCRIPTION_CHANNEL = "Hockey Night Channel";

/** From the home page's Channels rail, as a viewer would. */
async function openChannel(page: Page, title: string) {
  await page.goto("/");
  const rail = page.getByRole("region", { name: "Channels" });
  await rail.getByRole("link", { name: new RegExp(title) }).click();
  await expect(page).toHaveURL(/\/channels\/[0-9a-f]{24}$/);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
}

test("a channel card leads to the channel, which plays live and marks what is on now", async ({ page }) => {
  await openChannel(page, FREE_CHANNEL);

  await expectPlaying(page, 2);
  await expect(page.getByText("Free to watch")).toBeVisible();

  const guide = page.getByRole("region", { name: "Programme guide" });
  const onNow = guide.locator('[aria-current="time"]');
  await expect(onNow).toHaveCount(1);
  await expect(onNow).toContainText("On now");
  await expect(onNow).toHaveClass(/programme__slot--now/);
  // It is styled apart from the others: its own background.
  const background = (locator: ReturnType<Page["locator"]>) =>
    locator.evaluate((element) => getComputedStyle(element).backgroundColor);
  const other = guide.locator("li.programme__slot:not([aria-current])").first();
  expect(await background(onNow)).not.toBe(await background(other));
});

test("a channel the viewer does not hold shows the paywall, and no video", async ({ page, request }) => {
  const viewer = await newViewer(request, "pat-paywall");
  await signInOnPage(page, viewer, "/");
  await openChannel(page, SUBSCRIPTION_CHANNEL);

  await expect(page.getByRole("link", { name: "Redeem a code" })).toBeVisible();
  await expect(playerVideo(page)).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Programme guide" }).locator('[aria-current="time"]')).toHaveCount(1);
});
