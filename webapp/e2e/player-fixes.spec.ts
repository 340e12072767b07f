import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { commerceOptions, listEvents, newViewer, signInOnPage } from "./event-support";
import {
  adHits,
  controlsCaughtUp,
  openWithAd,
  expectPlaying,
  findEvent,
  findEvents,
  playerVideo,
  videoState,
  withPreroll,
  type ListedEvent,
} from "./player-support";

/**
 * The player's defects of issue 25 §4: the quality menu under the seek bar, the seek bar in
 * right-to-left languages, the arrow keys' step, the pre-roll on every return, a second tab that
 * stays locked after a purchase, and the ad's controls on a phone.
 */

const player = (page: Page) => page.getByRole("region", { name: /Video player|נגן וידאו/ }).first();
/** The seek bar's own slider (inside media-chrome's time range). */
const seekBar = (page: Page) => page.locator("media-time-range input[type=range]");
const adBreak = (page: Page) => page.getByRole("region", { name: "Advertisement" });

async function pausePlayback(page: Page) {
  await player(page)
    .getByRole("button", { name: /^(Pause|השהיה)$/ })
    .click();
  await expect.poll(async () => (await videoState(page)).paused).toBe(true);
}

/** Clicks the seek bar `fraction` of its width from its left edge, and waits for the seek to end. */
async function clickSeekBar(page: Page, fraction: number) {
  const box = (await seekBar(page).boundingBox())!;
  await page.mouse.click(box.x + box.width * fraction, box.y + box.height / 2);
  await expect.poll(() => playerVideo(page).evaluate((video: HTMLVideoElement) => video.seeking)).toBe(false);
}

/** The centre of `locator` as a fraction of the seek bar's width, from its left edge. */
async function acrossSeekBar(page: Page, locator: Locator): Promise<number> {
  const bar = (await seekBar(page).boundingBox())!;
  const box = (await locator.boundingBox())!;
  return (box.x + box.width / 2 - bar.x) / bar.width;
}

test.describe("the player's controls", () => {
  test("Auto in the quality menu sits above the seek bar and chooses automatic quality", async ({ page, request }) => {
    const event = await findEvent(request, { status: "live", commerce: "commerce_free_media" });
    await page.goto(`/events/${event._id}`);
    await expectPlaying(page, 1);
    const quality = player(page).getByRole("button", { name: "Quality" });
    const menu = page.locator("media-rendition-menu");

    // A fixed rendition first, so that Auto has something to change.
    await quality.click();
    await menu
      .getByRole("menuitemradio", { name: /^\d+p$/ })
      .first()
      .click();
    await expect(menu).toBeHidden();
    await quality.click();
    await expect(menu.getByRole("menuitemradio", { checked: true })).toHaveAccessibleName(/^\d+p$/);
    const auto = menu.getByRole("menuitemradio", { name: /^Auto/ });
    await expect(auto).toBeVisible();
    // Nothing is drawn over Auto: what a click there hits is the menu itself.
    const box = (await auto.boundingBox())!;
    const hit = await page.evaluate(
      ([x, y]) => {
        // The element a click there reaches, followed out of the shadow trees it is in.
        let element: Element | null = document.elementFromPoint(x, y);
        while (element?.shadowRoot?.elementFromPoint(x, y) && element.shadowRoot.elementFromPoint(x, y) !== element)
          element = element.shadowRoot.elementFromPoint(x, y);
        const first = element?.localName;
        for (; element; element = element.parentElement ?? ((element.getRootNode() as ShadowRoot).host || null))
          if (element.localName === "media-rendition-menu") return "menu";
        return first;
      },
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(hit).toBe("menu");
    const clickedAt = Date.now();
    const before = await videoState(page);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect(menu).toBeHidden();
    await quality.click();
    await expect(menu.getByRole("menuitemradio", { checked: true })).toHaveAccessibleName(/^Auto/);
    // And it did not seek: playback went on from where it was, as far as the time that passed
    // (seconds on a busy machine) took it, and no further.
    const after = await videoState(page);
    const passed = (Date.now() - clickedAt) / 1000;
    expect(after.currentTime - before.currentTime).toBeGreaterThan(-1);
    expect(after.currentTime - before.currentTime).toBeLessThan(passed + 1);
    await page.keyboard.press("Escape");
    await expectPlaying(page, 1);
  });

  test("the arrow keys step exactly 10 s whichever control has focus, as the shortcut help says", async ({
    page,
    request,
  }) => {
    const event = await findEvent(request, { status: "archived", commerce: "commerce_free_media", minSeconds: 1_000 });
    await page.goto(`/events/${event._id}`);
    await expectPlaying(page, 1);
    await pausePlayback(page);
    const { duration } = await videoState(page);
    expect(duration, "a long replay, where a percentage step is far from 10 s").toBeGreaterThan(1_000);

    // Focus on the seek bar, after clicking it.
    await clickSeekBar(page, 0.5);
    const time = async () => (await videoState(page)).currentTime;
    const step = async (key: string) => {
      const before = await time();
      await page.keyboard.press(key);
      await expect.poll(() => playerVideo(page).evaluate((video: HTMLVideoElement) => video.seeking)).toBe(false);
      await expect.poll(time).not.toBeCloseTo(before, 1);
      return (await time()) - before;
    };
    expect(await step("ArrowLeft")).toBeCloseTo(-10, 0);
    expect(await step("ArrowRight")).toBeCloseTo(10, 0);

    // Focus on a button of the bar.
    await player(page).getByRole("button", { name: "Back 10 seconds" }).focus();
    expect(await step("ArrowLeft")).toBeCloseTo(-10, 0);
    expect(await step("ArrowRight")).toBeCloseTo(10, 0);

    // Focus on the player itself.
    await player(page).focus();
    expect(await step("ArrowLeft")).toBeCloseTo(-10, 0);

    // The help says the same.
    await page.keyboard.press("Shift+?");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" }).getByText("Back 10 seconds")).toBeVisible();
  });
});

test.describe("the seek bar in Hebrew (right to left)", () => {
  test("the timeline runs left to right: click, fill, playhead and time all agree", async ({ page, request }) => {
    const event = await findEvent(request, { status: "archived", commerce: "commerce_free_media", minSeconds: 1_000 });
    await page.goto(`/he/events/${event._id}`);
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expectPlaying(page, 1);
    await pausePlayback(page);
    const { duration } = await videoState(page);

    // At the start, the time reads "elapsed / duration" from left to right.
    const display = page.locator("media-time-display");
    await expect(display).toHaveJSProperty("dir", "ltr");
    expect(await display.evaluate((element) => getComputedStyle(element).direction)).toBe("ltr");

    // 25 % from the left of the bar is 25 % of the replay.
    await clickSeekBar(page, 0.25);
    expect((await videoState(page)).currentTime / duration).toBeCloseTo(0.25, 1);
    // The playhead and the end of the played fill are drawn there too.
    const thumb = page.locator("media-time-range #thumb");
    await expect.poll(() => acrossSeekBar(page, thumb)).toBeGreaterThan(0.2);
    expect(await acrossSeekBar(page, thumb)).toBeLessThan(0.3);
    const bar = (await seekBar(page).boundingBox())!;
    const fill = (await page.locator("media-time-range #progress").boundingBox())!;
    expect(Math.abs(fill.x - bar.x)).toBeLessThan(bar.width * 0.03);
    expect((fill.x + fill.width - bar.x) / bar.width).toBeCloseTo(0.25, 1);

    // 75 % from the left is 75 %.
    await clickSeekBar(page, 0.75);
    expect((await videoState(page)).currentTime / duration).toBeCloseTo(0.75, 1);
    await expect.poll(() => acrossSeekBar(page, thumb)).toBeGreaterThan(0.7);

    // ← goes back, → forward, as the arrows point on a left-to-right timeline.
    await seekBar(page).focus();
    await controlsCaughtUp(page);
    const before = (await videoState(page)).currentTime;
    await page.keyboard.press("ArrowLeft");
    await expect.poll(async () => (await videoState(page)).currentTime).toBeCloseTo(before - 10, 0);
  });
});

/** A free archived game with match stats, whose page links to them. */
async function gameWithStats(request: APIRequestContext): Promise<ListedEvent> {
  const events = await findEvents(request, { status: "archived", commerce: "commerce_free_media" });
  const game = (events as (ListedEvent & { integrations?: { vidswap?: { enabled?: boolean } } })[]).find(
    (candidate) => candidate.integrations?.vidswap?.enabled,
  );
  expect(game, "a seeded free archived game with stats").toBeDefined();
  return game!;
}

test.describe("the pre-roll", () => {
  test("plays once per event in a session: not again after Match stats and back", async ({ page, request }) => {
    test.setTimeout(90_000);
    const game = await gameWithStats(request);
    const ad = `e2e-once-${Date.now().toString(36)}`;
    await withPreroll(page, `/media/ads/preroll.xml?ad=${ad}`);
    await openWithAd(page, `/events/${game._id}`);
    const vastRequests: string[] = [];
    page.on("request", (sent) => sent.url().includes("/media/ads/preroll.xml") && vastRequests.push(sent.url()));
    await adBreak(page).getByRole("button", { name: "Skip ad" }).click({ timeout: 8_000 });
    await expect(adBreak(page)).toBeHidden();
    await expectPlaying(page, 1);

    // To the match stats and back by the page's link: the match, no ad.
    await page.getByRole("link", { name: "Match stats" }).click();
    await expect(page).toHaveURL(new RegExp(`/events/stats/${game._id}`));
    await page.getByRole("link", { name: "Back to the event" }).click();
    await expect(page).toHaveURL((url) => url.pathname === `/events/${game._id}`);
    await expectPlaying(page, 1);
    await expect(adBreak(page)).toHaveCount(0);

    // And by the browser's Back button.
    await page.getByRole("link", { name: "Match stats" }).click();
    await expect(page).toHaveURL(new RegExp(`/events/stats/${game._id}`));
    await page.goBack();
    await expectPlaying(page, 1);
    await expect(adBreak(page)).toHaveCount(0);
    // A reload is the same session.
    await page.reload();
    await expectPlaying(page, 1);
    await expect(adBreak(page)).toHaveCount(0);
    // The ad was not even asked for again, and it was seen once.
    expect(vastRequests).toEqual([]);
    expect((await adHits(request, ad)).impression).toBe(1);

    // Another event of the same session has its own pre-roll.
    const other = (await findEvents(request, { status: "archived", commerce: "commerce_free_media" })).find(
      (candidate) => candidate._id !== game._id,
    );
    expect(other, "a second free archived event").toBeDefined();
    await openWithAd(page, `/events/${other!._id}`);
  });

  test("on a 390 px phone the ad's controls sit in the frame, apart from each other and the player's", async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const event = await findEvent(request, { status: "archived", commerce: "commerce_free_media" });
    await withPreroll(page, `/media/ads/preroll.xml?ad=e2e-phone-${Date.now().toString(36)}`);
    await openWithAd(page, `/events/${event._id}`);
    await expect(adBreak(page).getByRole("button", { name: "Skip ad" })).toBeVisible({ timeout: 8_000 });
    // Held still while it is measured and photographed (it is only 6 s long).
    const adVideo = page.locator(".player-ad__video");
    await adVideo.evaluate((video: HTMLVideoElement) => video.pause());
    const frame = (await page.locator(".player__frame").first().boundingBox())!;
    const controls = [
      adBreak(page).getByText("Ad", { exact: true }),
      adBreak(page).getByText(/^Ad · /),
      adBreak(page).getByRole("button", { name: "Sound off" }),
      adBreak(page).getByRole("link", { name: "Visit the advertiser" }),
      adBreak(page).getByRole("button", { name: "Skip ad" }),
    ];
    const boxes: { x: number; y: number; width: number; height: number }[] = [];
    for (const control of controls) if ((await control.count()) > 0) boxes.push((await control.boundingBox())!);
    expect(boxes.length).toBeGreaterThanOrEqual(4);
    const overlap = (a: (typeof boxes)[0], b: (typeof boxes)[0]) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    for (const [index, box] of boxes.entries()) {
      // Inside the frame...
      expect(box.x).toBeGreaterThanOrEqual(frame.x);
      expect(box.x + box.width).toBeLessThanOrEqual(frame.x + frame.width + 0.5);
      expect(box.y).toBeGreaterThanOrEqual(frame.y);
      expect(box.y + box.height).toBeLessThanOrEqual(frame.y + frame.height + 0.5);
      // ...apart from the others...
      for (const other of boxes.slice(index + 1)) expect(overlap(box, other)).toBe(false);
      // ...and along the top or the bottom edge, leaving the middle of the picture free.
      const alongAnEdge = box.y + box.height <= frame.y + frame.height * 0.25 || box.y >= frame.y + frame.height * 0.75;
      expect(alongAnEdge, `a control at ${Math.round(box.y - frame.y)} px of ${frame.height}`).toBe(true);
    }
    // The buttons are touch targets of at least 24 px (WCAG 2.5.8).
    for (const button of [
      adBreak(page).getByRole("button", { name: "Skip ad" }),
      adBreak(page).getByRole("button", { name: "Sound off" }),
    ])
      expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(24);
    // The player's own controls wait, hidden, under the ad.
    await expect(page.locator("media-control-bar")).toBeHidden();
    await adVideo.evaluate((video: HTMLVideoElement) => video.play());
    // Then (the ad over, 6 s) the match, with its own controls and nothing of the ad's left.
    await expect(adBreak(page)).toBeHidden({ timeout: 15_000 });
    await expectPlaying(page, 1);
    await expect(page.locator("media-control-bar")).toBeVisible();
  });
});

const REQUIRES_ACTION = "4000000000003220";
const SUCCESS = "4242424242424242";

async function payPerViewGame(request: APIRequestContext, status: string, skip: Set<string>) {
  const games = await listEvents(request, { status: [status], media_type: ["event"] });
  for (const game of games) {
    if (game.commerce_type !== "commerce_ppv_media" || skip.has(game._id)) continue;
    const options = await commerceOptions(request, game._id);
    const product = options.products.find((item) => item.type === "ppv" && item.event_id === game._id);
    if (!options.availableForUser && product) {
      skip.add(game._id);
      return { game, productId: product._id };
    }
  }
  throw new Error(`no ${status} pay-per-view game with a product in the seed`);
}
const bought = new Set<string>();

for (const [card, name] of [
  [REQUIRES_ACTION, '"requires action" card'],
  [SUCCESS, "card that pays at once"],
] as const) {
  test(`a second tab of the event unlocks when the match is bought in another tab (${name})`, async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(90_000);
    const { game } = await payPerViewGame(request, "archived", bought);
    const viewer = await newViewer(request, "two-tabs");
    await signInOnPage(page, viewer, `/events/${game._id}`);
    const watching = await context.newPage();
    await watching.goto(`/events/${game._id}`);
    const paywall = watching.getByRole("region", { name: "Watch this match" });
    await expect(paywall).toBeVisible();

    // The first tab buys the match through the paywall.
    await page.getByRole("link", { name: /Buy this match/ }).click();
    await page.getByLabel("Card number").fill(card);
    await page.getByLabel("Expiry date").fill(`12/${String(new Date().getFullYear() + 3).slice(-2)}`);
    await page.getByLabel("Security code (CVC)").fill("123");
    await page.getByRole("button", { name: /^Pay/ }).click();
    await expect(page).toHaveURL(/\/payment\/success/, { timeout: 30_000 });
    const paidAt = Date.now();

    // The second tab, untouched, unlocks within seconds and plays.
    await expect(paywall).toBeHidden({ timeout: 10_000 });
    expect(Date.now() - paidAt).toBeLessThan(10_000);
    await expect(watching.getByText("Payment processing")).toHaveCount(0);
    await expectPlaying(watching, 1, 20_000);
  });
}
