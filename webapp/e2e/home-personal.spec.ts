import { expect, test, type Page } from "@playwright/test";
import { confirmSignUp } from "./mailbox";
import { listEvents, newViewer, signInOnPage, type ApiEvent } from "./event-support";
import { expectPlaying, findEvent, playerVideo, videoState } from "./player-support";

const password = "a-long-enough-password-2026";

interface Identity {
  _id: string;
  title: string;
  media_type: string;
}
type Game = ApiEvent & {
  eventTeams?: { homeTeam?: { name: string } };
  mediaIdentities?: Identity[];
};

async function signUp(page: Page) {
  await page.goto("/auth/sign-up");
  await page.getByLabel(/name/i).first().fill("Hana Home");
  const email = `home-${Date.now()}@example.com`;
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByLabel(/^password$/i).fill(password);
  await page.getByLabel(/confirm|repeat/i).fill(password);
  await page.getByRole("checkbox").first().check();
  await page.getByRole("button", { name: /sign up|create/i }).click();
  await confirmSignUp(page, email);
}

const homeLink = (page: Page) => page.getByRole("banner").getByRole("link", { name: /homepage/i });

test("sign up, follow a team, and its coming games lead the home page under Your teams", async ({ page, request }) => {
  // A team with a game still to come, and the league it plays in.
  const upcoming = (await listEvents(request, { status: ["upcoming"], media_type: ["event"] })) as Game[];
  const game = upcoming.find(
    (event) =>
      event.eventTeams?.homeTeam?.name && event.mediaIdentities?.some((item) => item.media_type === "identity_item"),
  );
  expect(game, "a seeded upcoming game with teams and a league").toBeDefined();
  const team = game!.eventTeams!.homeTeam!.name;
  const league = game!.mediaIdentities!.find((item) => item.media_type === "identity_item")!.title;

  await signUp(page);
  await expect(page).toHaveURL(/\/auth\/sign-up\/personalization\/?$/);
  await expect(page.getByText("we will show you their games first")).toBeVisible();

  // Leagues and teams: the league, then its team.
  await page.getByRole("link", { name: "Browse leagues and teams" }).click();
  await page.getByRole("link", { name: league, exact: true }).click();
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/follow/save") && r.ok());
  await page.getByRole("button", { name: `Follow ${team}`, exact: true }).click();
  await saved;
  await page.getByRole("link", { name: "Next" }).click();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page).toHaveURL(/\/$/);

  // The home page leads with the team's games.
  const yourTeams = page.getByRole("region", { name: "Your teams" });
  await expect(yourTeams).toBeVisible();
  await expect(yourTeams.getByRole("link", { name: new RegExp(team) }).first()).toBeVisible();
  const headings = await page.getByRole("heading", { level: 2 }).allTextContents();
  expect(headings[0]).toBe("Your teams");

  // A card leads to the game.
  await yourTeams
    .getByRole("link", { name: new RegExp(team) })
    .first()
    .click();
  await expect(page).toHaveURL(/\/events\/[0-9a-f]{24}/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(team);

  // Signed out, the home page is everyone's again.
  await page.evaluate(() => localStorage.clear());
  await page.goto("/");
  await expect(page.getByRole("region", { name: "Live now" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Your teams" })).toHaveCount(0);
});

test("watch an archived game part way, find it under Continue watching, and resume where it stopped", async ({
  page,
  request,
}) => {
  test.slow(); // a game played, paused, and played again from the saved place
  const viewer = await newViewer(request, "resume");
  const game = await findEvent(request, { status: "archived", commerce: "commerce_free_media", minSeconds: 1_000 });
  await signInOnPage(page, viewer, "/");

  // Nothing to continue yet.
  await expect(page.getByRole("region", { name: "Live now" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Continue watching" })).toHaveCount(0);

  await page.goto(`/events/${game._id}`);
  await expectPlaying(page);
  // Skip ahead to 1:05 and watch a little, then pause: the pause is reported.
  // Seek again while the player is still settling (its first level switch may restart the stream).
  await expect
    .poll(
      async () =>
        playerVideo(page).evaluate((video: HTMLVideoElement) => {
          if (video.currentTime < 60) video.currentTime = 65;
          return video.currentTime;
        }),
      { timeout: 20_000, intervals: [1_000] },
    )
    .toBeGreaterThan(66);
  const reported = page.waitForResponse((r) => r.url().endsWith("/api/user/save_playback_position") && r.ok());
  await playerVideo(page).evaluate((video: HTMLVideoElement) => video.pause());
  const saved = (await (await reported).json()) as { content: { position: number; duration: number } };
  expect(saved.content.position).toBeGreaterThan(65);
  expect(saved.content.duration).toBeGreaterThan(saved.content.position);
  const stoppedAt = saved.content.position;

  // Home: the game is under Continue watching, with how much of it was watched.
  await homeLink(page).click();
  const rail = page.getByRole("region", { name: "Continue watching" });
  await expect(rail).toBeVisible();
  const card = rail.getByRole("link", { name: new RegExp(game.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) });
  await expect(card).toBeVisible();
  // Where it stopped: past 1:05, and a busy machine may have played on for a few seconds before the pause.
  await expect(rail.getByText(/^1:[0-5]\d of .* watched$/)).toHaveCount(1);

  // Back to it: playback resumes near where it stopped, and says so.
  await card.click();
  await expect(page).toHaveURL(new RegExp(`/events/${game._id}`));
  await expect(page.getByRole("status").filter({ hasText: /^Resumed at 1:[0-5]\d/ })).toBeVisible();
  await expect
    .poll(async () => (await videoState(page)).currentTime, { timeout: 15_000 })
    .toBeGreaterThan(stoppedAt - 3);

  // Start over goes back to the beginning.
  await page.getByRole("button", { name: "Start over" }).click();
  await expect.poll(async () => (await videoState(page)).currentTime, { timeout: 10_000 }).toBeLessThan(10);
});
