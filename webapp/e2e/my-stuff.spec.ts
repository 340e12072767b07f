import { expect, test, type Page } from "@playwright/test";
import { newViewer, signInOnPage } from "./event-support";

/** Each "My stuff" link, and what its page shows once there. */
const MY_STUFF = [
  { link: "Watchlist", path: "/selected/videos", heading: "My videos", shows: "Your watchlist is empty." },
  { link: "My clips", path: "/selected/clips", heading: "My clips", shows: "You have not made any clips yet." },
  { link: "Following", path: "/following/league", heading: "Leagues", shows: "Northern Premier Division" },
  { link: "Recommendations", path: "/recommendation", heading: "Recommended for you", shows: null },
  { link: "Favourite club", path: "/club", heading: "Your favourite club", shows: null },
] as const;

const userMenu = (page: Page, name: string) => page.getByRole("button", { name: new RegExp(name) });

async function expectPage(page: Page, item: (typeof MY_STUFF)[number]) {
  await expect(page).toHaveURL((url) => url.pathname.replace(/\/$/, "") === item.path);
  await expect(page.getByRole("heading", { level: 1, name: item.heading })).toBeVisible();
  if (item.shows) await expect(page.getByText(item.shows).first()).toBeVisible();
}

test("the signed-in user menu leads to each of the viewer's own pages", async ({ page, request }) => {
  const viewer = await newViewer(request, "mia-mystuff");
  await signInOnPage(page, viewer, "/live");

  for (const item of MY_STUFF) {
    await userMenu(page, "mia-mystuff").click();
    const myStuff = page.getByRole("list", { name: "My stuff" });
    await expect(myStuff).toBeVisible();
    await myStuff.getByRole("link", { name: item.link, exact: true }).click();
    await expectPage(page, item);
    // The menu closed behind the click.
    await expect(page.getByRole("list", { name: "My stuff" })).toBeHidden();
  }
});

test("the user menu works from the keyboard", async ({ page, request }) => {
  const viewer = await newViewer(request, "kai-keys");
  await signInOnPage(page, viewer, "/live");

  await userMenu(page, "kai-keys").focus();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("link", { name: "Watchlist", exact: true })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("link", { name: "Following", exact: true })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("list", { name: "My stuff" })).toBeHidden();
  await expect(userMenu(page, "kai-keys")).toBeFocused();

  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Watchlist", exact: true })).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expectPage(page, MY_STUFF[1]);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the navigation panel has the viewer's own pages, in their language", async ({ page, request }) => {
    const viewer = await newViewer(request, "pia-phone");
    await signInOnPage(page, viewer, "/live");

    for (const item of [MY_STUFF[0], MY_STUFF[4]]) {
      await page.getByRole("button", { name: "Open the menu" }).click();
      const nav = page.getByRole("navigation", { name: "My stuff" });
      await expect(nav.getByRole("link")).toHaveCount(MY_STUFF.length);
      await nav.getByRole("link", { name: item.link, exact: true }).click();
      await expectPage(page, item);
      await expect(nav).toBeHidden();
    }

    // Another language: its words, and links that keep its prefix.
    await page.getByRole("button", { name: "Open the menu" }).click();
    await page.getByRole("combobox").selectOption("de");
    await expect(page).toHaveURL(/\/de\/club\/?$/);
    await page.getByRole("button", { name: "Menü öffnen" }).click();
    const nav = page.getByRole("navigation", { name: "Meine Inhalte" });
    await nav.getByRole("link", { name: "Merkliste" }).click();
    await expect(page).toHaveURL(/\/de\/selected\/videos\/?$/);
    await expect(page.getByRole("heading", { level: 1, name: "Meine Videos" })).toBeVisible();
  });
});
