import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import {
  createEvent,
  liveAsset,
  newViewer,
  recordTraffic,
  roomJoined,
  setStreamWithCli,
  signInOnPage,
  staffToken,
} from "./event-support";
import { expiryOf, signInAsFan, startServer, tokenOf, type ExtraServer } from "./player-support";
import { freeTcpPorts } from "./seeded-server.mjs";

// Multiview: up to four live events side by side, one of them heard at a time. A person's way
// there: the Live page's link, then the picker; the set then lives in the address (?events=).

interface LiveEvent {
  _id: string;
  title: string;
  availableForUser: boolean;
  availableInUserRegion: boolean;
  event_date: string;
  eventTeams?: unknown;
  integrations?: { vidswap?: { enabled?: boolean } };
  content: { HLSStream: string | null };
}

/** The live games as `bearer`'s viewer sees them, longest live first (none of them ends mid-test). */
async function liveEvents(request: APIRequestContext, bearer: string, base = ""): Promise<LiveEvent[]> {
  const answer = await request.post(`${base}/api/event/list`, {
    data: {
      page: 0,
      size: 100,
      sort: "event_date",
      order: "asc",
      filters: { status: ["live"], media_type: ["event"] },
    },
    headers: { Authorization: `Bearer ${bearer}` },
  });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { content: { entries: LiveEvent[] } }).content.entries;
}

/** Live games `bearer`'s viewer may watch, at least `count` of them. */
async function watchable(request: APIRequestContext, bearer: string, count: number, base = ""): Promise<LiveEvent[]> {
  const events = (await liveEvents(request, bearer, base)).filter(
    (event) => event.availableForUser && event.content.HLSStream,
  );
  expect(events.length, `${count} seeded live events the viewer may watch`).toBeGreaterThanOrEqual(count);
  return events.slice(0, count);
}

const tiles = (page: Page) => page.locator(".mv-tile");
const tile = (page: Page, index: number) => tiles(page).nth(index);
const picker = (page: Page) => page.getByRole("region", { name: "Live events" });

/** Each tile's video: its time (-1 while paused or missing) and whether it is muted. */
async function tileVideos(page: Page): Promise<{ time: number; muted: boolean }[]> {
  return tiles(page).evaluateAll((items) =>
    items.map((item) => {
      const video = item.querySelector("video");
      return { time: video && !video.paused ? video.currentTime : -1, muted: video?.muted ?? true };
    }),
  );
}

/** Waits until `count` tiles' videos move on by a second or more; resolves with the time that took (ms). */
async function allPlaying(page: Page, count: number, timeout: number): Promise<number> {
  const started = Date.now();
  const first = new Map<number, number>();
  await expect
    .poll(
      async () => {
        const videos = await tileVideos(page);
        let moving = 0;
        videos.forEach(({ time }, index) => {
          if (time <= 0) return;
          if (!first.has(index)) first.set(index, time);
          else if (time - first.get(index)! >= 1) moving += 1;
        });
        return moving;
      },
      { timeout, intervals: [250], message: `${count} tiles playing` },
    )
    .toBe(count);
  return Date.now() - started;
}

/** Exactly one tile is heard, the `index`-th: its video unmuted, its picture pressed, and said so. */
async function expectHeard(page: Page, index: number, title: string) {
  await expect
    .poll(async () => (await tileVideos(page)).map(({ muted }) => muted))
    .toEqual([0, 1, 2, 3].map((other) => other !== index));
  for (let other = 0; other < 4; other += 1)
    await expect(tile(page, other).getByRole("button", { name: /^Hear /, includeHidden: true })).toHaveAttribute(
      "aria-pressed",
      String(other === index),
    );
  await expect(page.getByRole("status").filter({ hasText: /^Sound:/ })).toHaveText(
    `Sound: tile ${index + 1}, ${title}`,
  );
}

/** The renditions the tiles play, as each tile's player says (data attributes). */
async function renditions(page: Page) {
  return tiles(page).evaluateAll((items) =>
    items.map((item) => {
      const video = item.querySelector<HTMLElement>("[data-top-bitrate]");
      return {
        playing: Number(video?.dataset.levelBitrate ?? NaN),
        top: Number(video?.dataset.topBitrate ?? NaN),
        lowest: Number(video?.dataset.lowestBitrate ?? NaN),
      };
    }),
  );
}

/** `main` shows a page: visible text, no skeleton, no error screen. */
async function expectMainShows(page: Page) {
  const main = page.locator("main");
  await expect
    .poll(async () => (await main.innerText()).replace(/\s+/g, " ").trim().length, { message: "main has text" })
    .toBeGreaterThan(10);
  await expect(main.locator(".page-skeleton")).toHaveCount(0);
  await expect(page.locator(".status-screen")).toHaveCount(0);
}

test.describe("on a full-HD screen", () => {
  // Tiles wider than the lowest rendition: their size alone would let them play the next one up.
  test.use({ viewport: { width: 1920, height: 1080 } });

  test("from the Live page, a viewer adds four live events and watches them, hearing one at a time", async ({
    page,
    request,
  }) => {
    test.setTimeout(240_000);
    const bearer = await signInAsFan(page);
    const four = await watchable(request, bearer, 4);

    await page.locator("header").getByRole("link", { name: "Live", exact: true }).first().click();
    await expect(page).toHaveURL(/\/live\/?$/);
    await page.getByRole("link", { name: /in Multiview/ }).click();
    await expect(page).toHaveURL(/\/multiview\/?$/);
    await expect(page.getByRole("heading", { level: 1, name: "Multiview" })).toBeVisible();
    // The page is ready once the picker lists the live events.
    await expect(picker(page).getByRole("button", { name: `Add ${four[0].title}`, exact: true })).toBeVisible();
    const ready = Date.now();

    for (const event of four)
      await picker(page)
        .getByRole("button", { name: `Add ${event.title}`, exact: true })
        .click();
    await expect(page).toHaveURL(new RegExp(`/multiview\\?events=${four.map((event) => event._id).join(",")}$`));
    await expect(tiles(page)).toHaveCount(4);
    // A fifth cannot be added: the picker closed itself, and says so when opened again.
    await expect(picker(page)).toBeHidden();

    await allPlaying(page, 4, 120_000);
    const startSeconds = (Date.now() - ready) / 1000;
    test.info().annotations.push({
      type: "four tiles playing",
      description: `${startSeconds.toFixed(1)} s from the page being ready (the live events listed) to all four tiles' video advancing, the four clicks on Add included`,
    });
    // Each tile marked its first playing frame (what the benchmark reads).
    expect(
      await page.evaluate(() =>
        performance.getEntriesByName("multiview:tile-playing").map((mark) => (mark as PerformanceMark).detail),
      ),
    ).toEqual(expect.arrayContaining(four.map((event) => event._id)));

    // The sound: the first tile's at first; key 2, then a click on tile 3's picture, move it.
    await expectHeard(page, 0, four[0].title);
    await page.keyboard.press("2");
    await expectHeard(page, 1, four[1].title);
    await tile(page, 2)
      .getByRole("button", { name: /^Hear / })
      .click();
    await expectHeard(page, 2, four[2].title);

    // Bandwidth: each tile capped to its size and to a quarter of one full-screen stream's (its top
    // rendition's) bitrate × 1.5; the samples' smallest rung (144p) fits that share.
    let figures = await renditions(page);
    const within = () => {
      const sum = figures.reduce((total, { playing }) => total + playing, 0);
      const top = Math.max(...figures.map((figure) => figure.top));
      return { sum, top, ok: sum < top * 1.5 };
    };
    await expect
      .poll(
        async () => {
          figures = await renditions(page);
          return figures.every(({ playing }) => Number.isFinite(playing)) && within().ok;
        },
        { timeout: 30_000, message: "the four tiles' renditions under the top rendition's bitrate × 1.5" },
      )
      .toBe(true);
    const { sum, top } = within();
    test.info().annotations.push({
      type: "bitrates",
      description: `tiles play ${figures.map(({ playing }) => playing).join(" + ")} = ${sum} bit/s; top rendition ${top} bit/s × 1.5 = ${top * 1.5}`,
    });

    // Full view: one tile fills the grid; Escape goes back. Then by the buttons.
    const gridWidth = (await page.locator(".mv-grid").boundingBox())!.width;
    await tile(page, 0)
      .getByRole("button", { name: `Show ${four[0].title} in full view` })
      .click();
    await expect(tiles(page).filter({ visible: true })).toHaveCount(1);
    expect((await tile(page, 0).boundingBox())!.width).toBeGreaterThan(gridWidth * 0.9);
    await expectHeard(page, 0, four[0].title);
    await page.keyboard.press("Escape");
    await expect(tiles(page).filter({ visible: true })).toHaveCount(4);
    expect((await tile(page, 0).boundingBox())!.width).toBeLessThan(gridWidth * 0.6);
    await tile(page, 3)
      .getByRole("button", { name: `Show ${four[3].title} in full view` })
      .click();
    await expect(tiles(page).filter({ visible: true })).toHaveCount(1);
    await tile(page, 3).getByRole("button", { name: "Back to all events" }).click();
    await expect(tiles(page).filter({ visible: true })).toHaveCount(4);

    // Away to Home in the app and back with the browser: the page is there again, and plays.
    const address = page.url();
    await page.locator("header").getByRole("link", { name: "Home", exact: true }).first().click();
    await expect(page).not.toHaveURL(/multiview/);
    await expectMainShows(page);
    await page.goBack();
    await expect(page).toHaveURL(address);
    await expectMainShows(page);
    await expect(tiles(page)).toHaveCount(4);
    await allPlaying(page, 4, 120_000);
  });
});

test("an address's ?events= opens those tiles in its order, after signing in, also under a locale", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const viewer = await newViewer(request, "multiview");
  const [first, second] = await watchable(request, viewer.token, 2);
  const shared = `/multiview?events=${second._id},not-an-event,${first._id},${second._id}`;

  // Signed out, the shared address asks for a sign-in, then opens; what is not one of its events goes.
  await page.goto(shared);
  await expect(page).toHaveURL(/\/auth\/login/);
  await signInOnPage(page, viewer, shared);
  await expect(page).toHaveURL(new RegExp(`/multiview\\?events=${second._id},${first._id}$`));
  await expect(tiles(page)).toHaveCount(2);
  await expect(tile(page, 0).getByRole("heading", { level: 2 })).toHaveText(`Tile 1: ${second.title}`);
  await expect(tile(page, 1).getByRole("heading", { level: 2 })).toHaveText(`Tile 2: ${first.title}`);
  await allPlaying(page, 2, 60_000);

  await page.goto(`/de/multiview?events=${first._id}`);
  await expect(page.getByText("Schau bis zu vier Live-Events nebeneinander.", { exact: false })).toBeVisible();
  await expect(tiles(page)).toHaveCount(1);
  await allPlaying(page, 1, 60_000);
});

test("a live event the viewer may not watch shows its paywall in its tile", async ({ page, request }) => {
  test.setTimeout(120_000);
  const viewer = await newViewer(request, "multiview-paywall");
  const events = await liveEvents(request, viewer.token);
  const locked = events.find((event) => !event.availableForUser && event.availableInUserRegion);
  expect(locked, "a seeded live event a new viewer has not bought").toBeDefined();
  const [open] = await watchable(request, viewer.token, 1);
  await signInOnPage(page, viewer, `/multiview?events=${open._id},${locked!._id}`);

  const paywall = tile(page, 1).getByRole("region", { name: "Watch this match" });
  await expect(paywall).toBeVisible();
  await expect(paywall.getByRole("link", { name: "Redeem a code" })).toBeVisible();
  await expect(paywall.getByRole("link", { name: /Subscribe|Buy this match|Get the bundle/ }).first()).toBeVisible();
  await expect(tile(page, 1).locator("video")).toHaveCount(0);
  await allPlaying(page, 1, 60_000);
});

test("a 500 px wide screen lists the live events to pick one from instead of playing them", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 500, height: 900 });
  const viewer = await newViewer(request, "multiview-phone");
  const [first, second] = await watchable(request, viewer.token, 2);
  await signInOnPage(page, viewer, `/multiview?events=${second._id},${first._id}`);

  const list = page.getByRole("list", { name: "Live events to watch" });
  await expect(list).toBeVisible();
  const links = list.getByRole("link");
  await expect(links.nth(0)).toHaveAttribute("href", `/events/${second._id}`);
  await expect(links.nth(1)).toHaveAttribute("href", `/events/${first._id}`);
  await expect(page.locator("video")).toHaveCount(0);
  await expect(tiles(page)).toHaveCount(0);

  await links.nth(0).click();
  await expect(page).toHaveURL(`/events/${second._id}`);
  await expectMainShows(page);
});

test("spoiler-free mode takes the scores off the tiles", async ({ page, request }) => {
  test.setTimeout(120_000);
  const viewer = await newViewer(request, "multiview-spoilers");
  const games = (await liveEvents(request, viewer.token)).filter(
    (event) => event.availableForUser && event.eventTeams && event.integrations?.vidswap?.enabled,
  );
  let scored: LiveEvent | undefined;
  for (const game of games) {
    const stats = await request.get(`/api/event/stats?id=${game._id}&score=true&overview=false`);
    if (stats.ok() && JSON.stringify(await stats.json()).includes("game-scores")) {
      scored = game;
      break;
    }
  }
  expect(scored, "a seeded live game with a score").toBeDefined();
  await signInOnPage(page, viewer, `/multiview?events=${scored!._id}`);
  const score = tile(page, 0).locator(".mv-tile__score");
  await expect(score).toHaveText(/^\d+ – \d+/);

  // The header's switch (not the account menu, which the viewer's name labels "multiview-spoilers").
  const toggle = page.locator("header").getByRole("button", { name: /^Spoiler-free/ });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await expect(score).toHaveCount(0);
  await expect(tile(page, 0).locator(".mv-tile__bar")).not.toHaveText(/\d+\s?[-–]\s?\d+/);
  // Still none once the tile is opened afresh with the mode on.
  await page.reload();
  await expect(tile(page, 0).getByRole("heading", { level: 2 })).toContainText("Tile 1:");
  await allPlaying(page, 1, 60_000);
  await expect(score).toHaveCount(0);
});

test("each tile follows its event's room: a staff stream switch plays at once, a finished match says so", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const token = await staffToken(request);
  const startedAgo = new Date(Date.now() - 10 * 60_000).toISOString();
  const [switched, finished] = await Promise.all(
    ["football", "hockey"].map((sample) =>
      createEvent(request, token, {
        title: `Multiview room ${sample} ${Date.now()}`,
        status: "live",
        event_date: startedAgo,
        content: { HLSStream: `/media/live/${sample}.m3u8` },
      }),
    ),
  );
  await signInAsFan(page);
  const traffic = recordTraffic(page);
  const joined = [roomJoined(page, switched._id), roomJoined(page, finished._id)];
  await page.goto(`/multiview?events=${switched._id},${finished._id}`);
  await allPlaying(page, 2, 60_000);
  await Promise.race([
    Promise.all(joined),
    page.waitForTimeout(15_000).then(() => {
      throw new Error("the tiles did not join their events' rooms within 15 s");
    }),
  ]);

  // The basketball sample, through a new asset of the event's own: the tile plays it without a reload.
  const moved = liveAsset(await setStreamWithCli(baseURL!, switched._id, "/media/live/basketball.m3u8"));
  expect(moved).not.toBe(liveAsset(switched.content.HLSStream));
  await expect
    .poll(() => traffic.requests.filter((url) => url.includes(`/live/${moved}/`) && url.includes(".ts")).length, {
      message: "segments of the new stream",
    })
    .toBeGreaterThan(0);

  // Staff finish the other match: its tile says it is no longer live; the switched one plays on.
  const answer = await request.post(`/api/admin/events/${finished._id}/finish`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(answer.ok()).toBe(true);
  await expect(tile(page, 1).getByText("This event is not live now.")).toBeVisible();
  await expect(tile(page, 1).locator("video")).toHaveCount(0);
  await expect(tile(page, 0).locator("video")).toHaveCount(1);
});

test.describe("with stream tokens that live 30 s", () => {
  // The server's shortest token life: the tiles must outlast their first tokens.
  const TOKEN_SECONDS = 30;
  let server: ExtraServer;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const [port] = await freeTcpPorts(1);
    server = await startServer(port, { TOUCHLINE_STREAM_TOKEN_SECONDS: String(TOKEN_SECONDS) });
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test("the tiles play on past their first tokens' expiry, each on its stream's renewed token", async ({
    page,
    request,
  }) => {
    test.setTimeout(150_000);
    const bearer = await signInAsFan(page, server.base);
    const two = await watchable(request, bearer, 2, server.base);
    // Every media request, by the stream's directory (`/media/live/<asset>/`), with the token in its
    // query (the master, a renewal; none for a request on the cookie alone) and its answer.
    const media: { stream: string; at: number; token: string | null; status?: number }[] = [];
    page.on("response", (answer) => {
      const match = /\/media\/live\/[^/]+\//.exec(answer.url());
      if (match)
        media.push({ stream: match[0], at: Date.now() / 1000, token: tokenOf(answer.url()), status: answer.status() });
    });

    await page.goto(`${server.base}/multiview?events=${two.map((event) => event._id).join(",")}`);
    await allPlaying(page, 2, 60_000);
    const streams = [...new Set(media.map((entry) => entry.stream))];
    expect(streams).toHaveLength(2);
    const firstTokens = streams.map((stream) => media.find((entry) => entry.stream === stream && entry.token)!.token!);
    const expiry = Math.max(...firstTokens.map(expiryOf));

    while (Date.now() / 1000 < expiry + 8) {
      await allPlaying(page, 2, 20_000);
      await expect(tiles(page).getByRole("alert")).toHaveCount(0);
    }
    streams.forEach((stream, index) => {
      const tokens = new Set(
        media.filter((entry) => entry.stream === stream && entry.token).map((entry) => entry.token!),
      );
      expect(tokens.size, `${stream} renewed its token`).toBeGreaterThan(1);
      for (const token of tokens)
        if (token !== firstTokens[index]) expect(expiryOf(token)).toBeGreaterThan(expiryOf(firstTokens[index]));
      const late = media.filter((entry) => entry.stream === stream && entry.at > expiryOf(firstTokens[index]) + 1);
      expect(late.length, `${stream} went on loading after its first token expired`).toBeGreaterThan(2);
      expect(late.every((entry) => entry.token !== firstTokens[index])).toBe(true);
    });
    expect(media.filter((entry) => entry.status !== undefined && entry.status >= 400)).toEqual([]);
  });
});
