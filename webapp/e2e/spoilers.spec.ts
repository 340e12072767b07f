import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { newViewer, signInOnPage } from "./event-support";
import { expectPlaying, playerVideo } from "./player-support";

// Spoiler-free mode (issue 31 §1): with it on, no score of a seeded match shows anywhere — in what
// the page shows, its markup (attributes included), the first view's HTML and the page title.

interface Listed {
  _id: string;
  title: string;
  media_type: string;
  status: string;
  commerce_type: string;
  mediaIdentities: { _id: string; media_type: string }[];
  eventTeams?: { homeTeam: { teamId: string } } | null;
  integrations?: { vidswap?: { enabled?: boolean } };
}

interface Scored {
  event: Listed;
  home: number;
  away: number;
}

async function listed(request: APIRequestContext, filters: object): Promise<Listed[]> {
  const answer = await request.post("/api/event/list", {
    data: { page: 0, size: 100, next: true, count: false, sort: "event_date", order: "desc", filters },
  });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { content: { entries: Listed[] } }).content.entries;
}

/** The seeded matches with a score (the stats partner's), asked for without spoiler-free mode. */
async function scoredMatches(request: APIRequestContext, status: string): Promise<Scored[]> {
  const matches = (await listed(request, { status: [status], media_type: ["event"] })).filter(
    (event) => event.eventTeams && event.integrations?.vidswap?.enabled,
  );
  const scored: Scored[] = [];
  for (const event of matches) {
    const answer = await request.get(`/api/event/stats?id=${event._id}&score=true&overview=false`);
    if (!answer.ok()) continue;
    const scores = ((await answer.json()) as { content: { vidswap: Record<string, unknown> } }).content.vidswap[
      "game-scores"
    ] as { homeTeam: { score: number }; awayTeam: { score: number } } | undefined;
    if (scores) scored.push({ event, home: scores.homeTeam.score, away: scores.awayTeam.score });
  }
  expect(scored.length, `seeded ${status} matches with a score`).toBeGreaterThan(0);
  return scored;
}

/** Every way the app writes a score (EventTeams "3 – 1", its label "Score 3 to 1", titles "3-1"). */
function scorePatterns(scored: readonly Scored[]): RegExp[] {
  const pairs = new Set(scored.map(({ home, away }) => `${home}|${away}`));
  return [...pairs].flatMap((pair) => {
    const [home, away] = pair.split("|");
    return [
      // Not inside a word (an asset's hashed name may hold "5-0"), a number or a date.
      new RegExp(`(?<![\\w.-])${home}\\s?[-–—]\\s?${away}(?![\\w.-])`),
      new RegExp(`Score ${home} to ${away}\\b`),
    ];
  });
}

/** The scores found in a text (empty when none). */
function scoresIn(text: string, patterns: readonly RegExp[]): string[] {
  return patterns.flatMap((pattern) => pattern.exec(text)?.[0] ?? []);
}

/** What the page shows and holds now: its text, its markup and its title. */
async function rendered(page: Page): Promise<string> {
  await expect(page.locator("main")).not.toBeEmpty();
  return page.evaluate(() => [document.title, document.body.innerText, document.documentElement.outerHTML].join("\n"));
}

async function turnOnInHeader(page: Page) {
  const toggle = page.getByRole("button", { name: "Spoiler-free" });
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
}

const eventPath = (event: Listed) =>
  event.media_type === "event" ? `/events/${event._id}` : `/events/${event._id}?media_type=${event.media_type}`;

test("with spoiler-free mode on, no seeded score shows on the catalogue's pages or on event pages", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const archived = await scoredMatches(request, "archived");
  const live = await scoredMatches(request, "live");
  const patterns = scorePatterns([...archived, ...live]);
  const highlight = (await listed(request, { status: ["vod", "archived"], media_type: ["highlight"] })).find(
    (event) => scoresIn(event.title, patterns).length > 0,
  );
  expect(highlight, "a seeded highlight whose title carries its score").toBeDefined();
  const match = archived[0].event;
  const league = match.mediaIdentities.find((identity) => identity.media_type === "identity_item")!;
  const channel = (await listed(request, { status: ["channel"] }))[0];

  // Without the mode the same scan finds scores: it can fail.
  await page.goto(eventPath(highlight!));
  expect(scoresIn(await rendered(page), patterns)).not.toEqual([]);

  await page.goto("/");
  await turnOnInHeader(page);
  // The home page's first answers, made without scores for this browser's cookie, are the ones
  // the app asks for in this mode: it takes them from the page and asks nothing more.
  const calls: string[] = [];
  page.on("request", (sent) => {
    if (/\/api\/(event|clip)\/list/.test(sent.url())) calls.push(sent.url());
  });
  await page.goto("/");
  await expect(page.locator(".event-card").first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(calls).toEqual([]);
  const pages = [
    "/",
    "/live",
    "/upcoming",
    "/archive",
    "/latest",
    "/highlight",
    "/suggested",
    `/search?q=${encodeURIComponent("Highlights")}`,
    `/league/${league._id}`,
    `/team/${match.eventTeams!.homeTeam.teamId}`,
    `/channels/${channel._id}`,
    `/events/stats/${match._id}`,
    eventPath(match),
    eventPath(highlight!),
    eventPath(live[0].event),
  ];
  for (const path of pages) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    expect(scoresIn(await rendered(page), patterns), `${path}: the page`).toEqual([]);
    // The first view's HTML, as the server sends it to this browser (its spoiler cookie).
    const html = await (await page.request.get(path)).text();
    expect(scoresIn(html, patterns), `${path}: its first HTML`).toEqual([]);
  }

  // Moving through the app as a person does: a card of the home page, then back and to a sibling page.
  await page.goto("/");
  await page
    .getByRole("link", { name: /highlights:/i })
    .first()
    .click();
  await expect(page).toHaveURL(/\/events\//);
  expect(scoresIn(await rendered(page), patterns)).toEqual([]);
  await page.goBack();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Live" }).click();
  await expect(page).toHaveURL(/\/live/);
  expect(scoresIn(await rendered(page), patterns)).toEqual([]);
});

test("Show score reveals one event's score, by a deliberate press, and Hide score takes it back", async ({
  page,
  request,
}) => {
  const [scored] = await scoredMatches(request, "archived");
  const patterns = scorePatterns([scored]);
  await page.goto("/");
  await turnOnInHeader(page);
  await page.goto(eventPath(scored.event));
  await expect(page.getByText("Scores are hidden.")).toBeVisible();
  expect(scoresIn(await rendered(page), patterns)).toEqual([]);

  await page.getByRole("button", { name: "Show score" }).click();
  await expect(page.getByLabel(`Score ${scored.home} to ${scored.away}`)).toBeVisible();
  // Another page of the same event knows it was revealed; the header still says the mode is on.
  await expect(page.getByRole("button", { name: "Spoiler-free" })).toHaveAttribute("aria-pressed", "true");

  await page.getByRole("button", { name: "Hide score" }).click();
  await expect(page.getByLabel(`Score ${scored.home} to ${scored.away}`)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Show score" })).toBeVisible();
});

test("an archived match plays in spoiler-free mode without showing how long it went", async ({ page, request }) => {
  const free = (await scoredMatches(request, "archived")).find(
    ({ event }) => event.commerce_type === "commerce_free_media",
  );
  expect(free, "a free archived match").toBeDefined();
  const scored = free!;
  await page.goto("/");
  await turnOnInHeader(page);
  await page.goto(eventPath(scored.event));
  await expectPlaying(page, 1);
  await expect(page.locator("media-time-range")).toHaveCount(0);
  await expect(page.locator("media-time-display")).not.toHaveAttribute("showduration", /.*/);
  // The keys still move through it.
  const before = await playerVideo(page).evaluate((video: HTMLVideoElement) => video.currentTime);
  await page.locator("media-controller").focus();
  await page.keyboard.press("l");
  await expect
    .poll(() => playerVideo(page).evaluate((video: HTMLVideoElement) => video.currentTime))
    .toBeGreaterThan(before + 9);
});

test("a signed-in viewer's choice is kept with the account, in another browser too", async ({ browser, request }) => {
  const viewer = await newViewer(request, "spoilers");
  const first = await browser.newContext();
  const page = await first.newPage();
  await signInOnPage(page, viewer, "/account/general");
  const setting = page.getByRole("checkbox", { name: "Spoiler-free mode" });
  await expect(setting).not.toBeChecked();
  const saved = page.waitForResponse((answer) => answer.url().includes("/api/user/update_profile"));
  await setting.check();
  expect((await saved).ok()).toBe(true);
  await expect(setting).toBeChecked();
  await first.close();

  const second = await browser.newContext();
  const elsewhere = await second.newPage();
  await signInOnPage(elsewhere, viewer, "/");
  await expect(elsewhere.getByRole("button", { name: "Spoiler-free" })).toHaveAttribute("aria-pressed", "true");
  await second.close();
});
