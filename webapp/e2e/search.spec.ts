import { expect, test } from "@playwright/test";

// The seed's fixtures have Ashford Town (fixtures/catalogue.yaml) in the Northern Premier Division.

test("a typo in the header's search box still finds the team, and its link opens the team's page", async ({ page }) => {
  await page.goto("/");
  const header = page.getByRole("banner");
  const box = header.getByRole("searchbox", { name: /search/i });
  await box.fill("Asford");
  await box.press("Enter");
  await expect(page).toHaveURL(/\/search\?q=Asford$/);

  const teams = page.getByRole("main").getByRole("region", { name: "Teams" });
  const team = teams.getByRole("link", { name: "Ashford Town" });
  await expect(team).toBeVisible();
  // Its games are found too, under their own heading.
  await expect(
    page.getByRole("main").getByRole("region", { name: "Events" }).locator('a[href*="/events/"]').first(),
  ).toBeVisible();

  await team.click();
  await expect(page).toHaveURL(/\/team\/[0-9a-f]{24}$/);
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1, name: "Ashford Town" })).toBeVisible();
  await expect(main.locator('a[href*="/events/"]').first()).toBeVisible();
});

test("the search page groups a league and a sport, each linking to its page", async ({ page }) => {
  await page.goto("/");
  const box = page.getByRole("banner").getByRole("searchbox", { name: /search/i });
  await box.fill("premier");
  await box.press("Enter");

  const main = page.getByRole("main");
  const league = main.getByRole("region", { name: "Leagues" }).getByRole("link", { name: "Northern Premier Division" });
  await expect(league).toBeVisible();
  await league.click();
  await expect(page).toHaveURL(/\/league\/[0-9a-f]{24}$/);
  await expect(main.getByRole("heading", { level: 1, name: "Northern Premier Division" })).toBeVisible();

  // The page's own box: a sport by a typo, which leads to what is live in it.
  await page.goBack();
  const pageBox = main.getByRole("searchbox");
  await pageBox.fill("fotball");
  await expect(page).toHaveURL(/[?&]q=fotball/);
  const sport = main.getByRole("region", { name: "Sports" }).getByRole("link", { name: /Football/ });
  await expect(sport).toBeVisible();
  await sport.click();
  await expect(page).toHaveURL(/\/live\/football$/);
  await expect(main.getByRole("heading", { level: 1 })).toBeVisible();
});

test("a search that finds nothing says so", async ({ page }) => {
  await page.goto("/search");
  const box = page.getByRole("main").getByRole("searchbox");
  await box.fill("zzqxv nothing");
  await expect(page.getByText("No results for “zzqxv nothing”. Try another word.")).toBeVisible();
});
