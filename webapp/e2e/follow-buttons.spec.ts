import { expect, test, type Page } from "@playwright/test";
import { newViewer, signInOnPage } from "./event-support";
import { LEAGUE, TEAM, openTeamPage } from "./following-support";

const header = (page: Page) => page.locator("header.identity-header");

test("following a team from its page puts it among the followed teams of its league", async ({ page, request }) => {
  const viewer = await newViewer(request, "flo-follow");
  await signInOnPage(page, viewer, "/");
  await openTeamPage(page, request);

  const saved = page.waitForResponse((r) => r.url().endsWith("/api/follow/save") && r.ok());
  await header(page)
    .getByRole("button", { name: `Follow ${TEAM}`, exact: true })
    .click();
  await saved;
  const following = header(page).getByRole("button", { name: `Unfollow ${TEAM}`, exact: true });
  await expect(following).toHaveAttribute("aria-pressed", "true");
  await expect(following).toHaveText("Following");

  // Still followed after a reload: the server has it.
  await page.reload();
  await expect(header(page).getByRole("button", { name: `Unfollow ${TEAM}`, exact: true })).toHaveAttribute(
    "aria-pressed",
    "true",
  );

  // My stuff → Following → the league → Followed: the team is there.
  await page.getByRole("button", { name: /flo-follow/ }).click();
  await page.getByRole("list", { name: "My stuff" }).getByRole("link", { name: "Following", exact: true }).click();
  // On the following page before its league is clicked: the team page still on screen links to the
  // league's own page by the same name.
  await expect(page).toHaveURL(/\/following\/(league|category)\/?$/);
  await page.locator("main").getByRole("link", { name: LEAGUE, exact: true }).click();
  await expect(page).toHaveURL(/\/following\/league\/[0-9a-f]{24}\/?$/);
  await expect(page.getByRole("heading", { level: 1, name: LEAGUE })).toBeVisible();
  await page.getByRole("navigation", { name: "Following" }).getByRole("link", { name: "Followed" }).click();
  const followed = page.getByRole("list", { name: `Followed: ${LEAGUE}` });
  await expect(followed.getByRole("listitem")).toHaveCount(1);
  await expect(followed.getByText(TEAM, { exact: true })).toBeVisible();

  // Back on the team page, unfollowing takes it off the list.
  await page.goBack();
  await page.goBack();
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1, name: TEAM })).toBeVisible();
  const removed = page.waitForResponse((r) => r.url().endsWith("/api/follow/remove_by_reference") && r.ok());
  await header(page)
    .getByRole("button", { name: `Unfollow ${TEAM}`, exact: true })
    .click();
  await removed;
  await expect(header(page).getByRole("button", { name: `Follow ${TEAM}`, exact: true })).toHaveAttribute(
    "aria-pressed",
    "false",
  );
  await page.goForward();
  await page.goForward();
  await page.goForward();
  await expect(page.getByText("You do not follow anything here yet.")).toBeVisible();
});

test("following a league from its page, then from the following pages, agree", async ({ page, request }) => {
  const viewer = await newViewer(request, "lee-league");
  await signInOnPage(page, viewer, "/");
  await openTeamPage(page, request);
  await header(page).getByRole("link", { name: LEAGUE }).click();
  await expect(page.getByRole("heading", { level: 1, name: LEAGUE })).toBeVisible();

  await header(page)
    .getByRole("button", { name: `Follow ${LEAGUE}`, exact: true })
    .click();
  await expect(header(page).getByRole("button", { name: `Unfollow ${LEAGUE}`, exact: true })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await page.getByRole("button", { name: /lee-league/ }).click();
  await page.getByRole("list", { name: "My stuff" }).getByRole("link", { name: "Following", exact: true }).click();
  await expect(page.getByRole("button", { name: `Unfollow ${LEAGUE}`, exact: true })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
});

test("an anonymous visitor's Follow leads to sign-in and back to the team", async ({ page, request }) => {
  const viewer = await newViewer(request, "ana-anon");
  await openTeamPage(page, request);
  const teamPath = new URL(page.url()).pathname;

  await header(page)
    .getByRole("link", { name: `Sign in to follow ${TEAM}` })
    .click();
  await expect(page).toHaveURL(
    (url) => url.pathname === "/auth/login/" && url.searchParams.get("redirect") === teamPath,
  );
  await page.getByLabel(/e-?mail/i).fill(viewer.email);
  await page.getByLabel(/password/i).fill(viewer.password);
  await page.getByRole("button", { name: /sign in|log in/i }).click();

  await expect(page).toHaveURL((url) => url.pathname === teamPath);
  await expect(header(page).getByRole("button", { name: `Follow ${TEAM}`, exact: true })).toHaveAttribute(
    "aria-pressed",
    "false",
  );
});
