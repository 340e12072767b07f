import { expect, type APIRequestContext, type Page } from "@playwright/test";

export const TEAM = "Harbor City Mariners";
export const LEAGUE = "Northern Premier Division";

export async function leagueId(request: APIRequestContext): Promise<string> {
  const answer = await request.post("/api/identity/list", {
    data: {
      page: 0,
      size: 100,
      sort: "order",
      order: "asc",
      next: false,
      count: false,
      filters: { media_type: "identity_item", archived: false },
    },
  });
  expect(answer.ok()).toBe(true);
  const body = (await answer.json()) as { content: { entries: { _id: string; title: string }[] } };
  const league = body.content.entries.find((entry) => entry.title === LEAGUE);
  expect(league, `the seeded league ${LEAGUE}`).toBeDefined();
  return league!._id;
}

/** From the league's page, as a visitor would: its Teams rail, then the team. */
export async function openTeamPage(page: Page, request: APIRequestContext) {
  await page.goto(`/league/${await leagueId(request)}`);
  await page
    .getByRole("region", { name: "Teams" })
    .getByRole("link", { name: new RegExp(TEAM) })
    .first()
    .click();
  await expect(page).toHaveURL(/\/team\/[0-9a-f]{24}$/);
  await expect(page.getByRole("heading", { level: 1, name: TEAM })).toBeVisible();
}

/** The viewer follows the team from its page, as a fan does; the team's id. */
export async function followTheTeam(page: Page, request: APIRequestContext): Promise<string> {
  await openTeamPage(page, request);
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/follow/save") && r.ok());
  await page
    .locator("header.identity-header")
    .getByRole("button", { name: `Follow ${TEAM}`, exact: true })
    .click();
  await saved;
  return page.url().split("/team/")[1];
}
