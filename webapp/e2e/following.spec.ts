import { expect, test, type Page } from "@playwright/test";
import { confirmSignUp } from "./mailbox";

const password = "a-long-enough-password-2026";
const NORTH = "Northern Premier Division";
const SOUTH = "Southern Championship";

async function signUp(page: Page) {
  await page.goto("/auth/sign-up");
  await page.getByLabel(/name/i).first().fill("Fola Follower");
  const email = `follower-${Date.now()}@example.com`;
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByLabel(/^password$/i).fill(password);
  await page.getByLabel(/confirm|repeat/i).fill(password);
  await page.getByRole("checkbox").first().check();
  await page.getByRole("button", { name: /sign up|create/i }).click();
  await confirmSignUp(page, email);
}

async function follow(page: Page, name: string) {
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/follow/save") && r.ok());
  await page.getByRole("button", { name: `Follow ${name}`, exact: true }).click();
  await saved;
  await expect(page.getByRole("button", { name: `Unfollow ${name}`, exact: true })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
}

async function bearer(page: Page): Promise<string> {
  return page.evaluate(() => (JSON.parse(localStorage.getItem("ott-data") ?? "{}") as { token: string }).token);
}

test("sign up, personalize, see what is followed and recommended, unfollow, pick a club, watchlist and clips", async ({
  page,
}) => {
  await signUp(page);

  // Sign-up goes on to personalization: follow two leagues there.
  await expect(page).toHaveURL(/\/auth\/sign-up\/personalization\/?$/);
  await expect(page.getByRole("heading", { level: 1, name: "Make it yours" })).toBeVisible();
  await follow(page, NORTH);
  await follow(page, SOUTH);
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page).toHaveURL(/\/$/);

  // Both are followed, with their posters.
  await page.goto("/following/league/followed");
  const followed = page.getByRole("list", { name: "Followed: Leagues" });
  await expect(followed.getByRole("listitem")).toHaveCount(2);
  await expect(followed.getByText(NORTH)).toBeVisible();
  await expect(followed.getByText(SOUTH)).toBeVisible();
  await expect(followed.locator("img").first()).toHaveAttribute("src", /\/media\//);

  // Recommendations come from those leagues.
  await page.goto("/recommendation");
  const recommended = page.getByRole("list", { name: "Recommended for you" });
  await expect(recommended.getByRole("listitem").first()).toBeVisible();
  const metas = await recommended.locator(".event-tile__meta").allTextContents();
  expect(metas.length).toBeGreaterThan(0);
  for (const meta of metas) expect(meta).toMatch(new RegExp(`${NORTH}|${SOUTH}`));
  const firstHref = await recommended.getByRole("link").first().getAttribute("href");
  const eventId = /\/events\/([^/?]+)/.exec(firstHref ?? "")?.[1];
  expect(eventId).toBeTruthy();

  // Unfollow one: it stays unfollowed after a reload.
  await page.goto("/following/league/followed");
  const removed = page.waitForResponse((r) => r.url().endsWith("/api/follow/remove_by_reference") && r.ok());
  await page.getByRole("button", { name: `Unfollow ${SOUTH}`, exact: true }).click();
  await removed;
  await page.reload();
  await expect(page.getByRole("list", { name: "Followed: Leagues" }).getByRole("listitem")).toHaveCount(1);
  await expect(page.getByRole("list", { name: "Followed: Leagues" }).getByText(NORTH)).toBeVisible();

  // The favourite club.
  await page.goto("/club?redirect=%2Frecommendation");
  await page.getByLabel("Find a club").fill("Harbor City Mariners");
  await page.getByRole("button", { name: "Choose Harbor City Mariners as your club", exact: true }).click();
  await expect(page).toHaveURL(/\/recommendation\/?$/);
  const club = await page.evaluate(
    () =>
      (JSON.parse(localStorage.getItem("ott-data") ?? "{}") as { user: { favoriteClubId: string } }).user
        .favoriteClubId,
  );
  expect(club).toMatch(/^team\|[0-9a-f]{24}$/);

  // The watchlist: an event put on it shows, and goes when removed.
  const token = await bearer(page);
  const added = await page.request.post("/api/user/add_to_watchlist", {
    headers: { Authorization: `Bearer ${token}` },
    data: { video_id: eventId },
  });
  expect(added.ok()).toBe(true);
  await page.goto("/selected/videos");
  const videos = page.getByRole("list", { name: "My videos" });
  await expect(videos.getByRole("listitem")).toHaveCount(1);
  await videos.getByRole("button", { name: /^Remove / }).click();
  await expect(page.getByText("Your watchlist is empty.")).toBeVisible();

  // Own clips: none yet.
  await page.goto("/selected/clips");
  await expect(page.getByRole("heading", { level: 1, name: "My clips" })).toBeVisible();
  await expect(page.getByText("You have not made any clips yet.")).toBeVisible();
});
