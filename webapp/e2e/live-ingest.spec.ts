import { expect, test as base, type APIRequestContext, type Page } from "@playwright/test";
import { createEvent, markPage, pageWasNotReloaded, roomJoined, socketMessage, staffToken } from "./event-support";
import {
  killTranscoder,
  publishTestPattern,
  recordMasters,
  recordMediaPlaylists,
  renditionHeights,
  startIngestServer,
  type Publisher,
} from "./ingest-support";
import { expectPlaying, playerVideo, type ExtraServer } from "./player-support";

/**
 * Issue 28, "Tests that must exist" 1: an encoder's feed reaches viewers through the real ingest
 * (nginx-rtmp, ffmpeg's SRT listener, the ladder), published by `touchline ingest test-pattern`.
 * The shared e2e servers run without an ingest: this file has a server of its own with one, on
 * ports found free (e2e/ingest-support.ts), so it never meets another run's ingest, and the live
 * events it makes never show in other specs' catalogues.
 */
const test = base.extend<object, { ingest: ExtraServer }>({
  ingest: [
    // Every stream key in force holds an SRT port: one per test's event, and spares.
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern: none
    async ({}, use) => {
      const server = await startIngestServer(4);
      await use(server);
      await server.stop();
    },
    { scope: "worker", timeout: 120_000 },
  ],
  baseURL: async ({ ingest }, use) => use(ingest.base),
});

// The ladder is transcoded on this machine while the browser plays it: seconds, not milliseconds.
test.describe.configure({ timeout: 60_000 });
const GOES_LIVE_MS = 40_000;
const PLAYS_MS = 20_000;

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

/** A fan finds the match with the header's search box and opens it. */
async function openFromSearch(page: Page, title: string) {
  await page.goto("/");
  const box = page.getByRole("banner").getByRole("searchbox", { name: /search/i });
  await box.fill(title);
  await box.press("Enter");
  await page.getByRole("main").getByRole("link", { name: title }).first().click();
  await expect(page).toHaveURL(/\/events\/[0-9a-f]{24}$/);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
}

interface Watch {
  /** The bodies of the master playlists the page loaded, in order. */
  masters: string[];
  /** Whether the page has been told that the event's stream changed. */
  toldOfNewStream: () => boolean;
}

/**
 * A free match kicking off in ten minutes (within the ingest's autostart window), open on a fan's
 * page: counting down, no player, and in the event's room for live changes.
 */
async function watchUpcomingMatch(page: Page, request: APIRequestContext, title: string) {
  const event = await createEvent(request, await staffToken(request), {
    title,
    status: "upcoming",
    event_date: minutesFromNow(10),
  });
  let told = false;
  void socketMessage(page, "event-url-change").then(() => (told = true));
  const watch: Watch = { masters: recordMasters(page), toldOfNewStream: () => told };
  const joined = roomJoined(page, event._id);
  await openFromSearch(page, title);
  await expect(page.getByRole("timer")).toBeVisible();
  await expect(playerVideo(page)).toHaveCount(0);
  await joined;
  await markPage(page);
  return { eventId: event._id, watch };
}

/** The open page turns into the live player by itself, and plays; it never reloads. */
async function expectTurnsLiveAndPlays(page: Page, watch: Watch, publisher: Publisher) {
  const playing = (async () => {
    await expect(page.getByRole("timer")).toHaveCount(0, { timeout: GOES_LIVE_MS });
    await expect(playerVideo(page)).toHaveCount(1, { timeout: PLAYS_MS });
    await expectPlaying(page, 2, PLAYS_MS);
  })();
  // A publisher that ends early fails the test with what it said, not after a long wait for a picture.
  const ended = await Promise.race([playing.then(() => null), publisher.ended]);
  if (ended)
    throw new Error(
      `touchline ingest test-pattern ended (exit code ${ended.code}) before the page played:\n${ended.stderr}`,
    );
  expect(watch.toldOfNewStream(), "the page heard event-url-change").toBe(true);
  await pageWasNotReloaded(page);
}

/** The heights of the renditions in the last master playlist the page loaded. */
async function ladderPlayed(watch: Watch): Promise<number[]> {
  await expect.poll(() => watch.masters.length).toBeGreaterThan(0);
  return renditionHeights(watch.masters.at(-1)!);
}

test("a 720p test pattern published over RTMP turns the open upcoming page live, and plays a three-rendition ladder", async ({
  page,
  request,
  baseURL,
}) => {
  const title = `Test pattern over RTMP ${Date.now()}`;
  const { eventId, watch } = await watchUpcomingMatch(page, request, title);

  // 12 fps, not 30: the same three rungs for under half the CPU, which the other worker's tests
  // (ads, seeking) share on a two-core machine.
  const publisher = publishTestPattern(baseURL!, eventId, [
    "--duration",
    "40",
    "--resolution",
    "1280x720",
    "--fps",
    "12",
  ]);
  try {
    await expectTurnsLiveAndPlays(page, watch, publisher);
    // The source's 720p and the two rungs below it.
    expect(await ladderPlayed(watch)).toEqual([720, 360, 234]);
    // Scrubbing back through the rewind window shows a picture of where it lands (issue 29 §5):
    // the recording's own pictures, a few segments behind live, under the live stream's token.
    const range = page.locator("media-time-range");
    const thumbnail = range.locator("media-preview-thumbnail");
    const box = (await range.boundingBox())!;
    await expect
      .poll(
        async () => {
          await page.mouse.move(box.x + box.width * 0.15, box.y + box.height / 2, { steps: 2 });
          await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2, { steps: 2 });
          return (await thumbnail.getAttribute("mediapreviewimage")) ?? "";
        },
        { timeout: 30_000 },
      )
      .toMatch(/\/media\/live\/[0-9a-f]{24}\/from-\d+\/thumbs-\d{6}\.jpg#xywh=0,0,160,90$/);
    const picture = await page.request.get((await thumbnail.getAttribute("mediapreviewimage"))!);
    expect([picture.status(), picture.headers()["content-type"]]).toEqual([200, "image/jpeg"]);
  } finally {
    await publisher.stop();
  }
});

test("a 360p test pattern published over SRT turns the open upcoming page live, plays a two-rendition ladder, and goes on playing when its transcoder crashes", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const title = `Test pattern over SRT ${Date.now()}`;
  const { eventId, watch } = await watchUpcomingMatch(page, request, title);
  const playlists = recordMediaPlaylists(page);

  const publisher = publishTestPattern(baseURL!, eventId, [
    "--protocol",
    "srt",
    "--duration",
    "90",
    "--resolution",
    "640x360",
  ]);
  try {
    await expectTurnsLiveAndPlays(page, watch, publisher);
    // Never upscaled: the source's 360p and the rung below it.
    expect(await ladderPlayed(watch)).toEqual([360, 234]);

    // The transcoder crashes mid-stream (issue 28, test 3): it is back within 3 s, its new run
    // follows after a discontinuity, and the page goes on playing without a reload.
    const assetId = /\/live\/([0-9a-f]{24})(?:\.m3u8|\/)/.exec(await eventStream(request, eventId))![1];
    const loadedBefore = playlists.length;
    expect(killTranscoder(assetId), "a transcoder of the event's live asset was running").toBe(true);
    await expectPlaying(page, 4, 30_000);
    await expect
      .poll(() => playlists.slice(loadedBefore).some((body) => body.includes("#EXT-X-DISCONTINUITY")), {
        timeout: 20_000,
      })
      .toBe(true);
    await pageWasNotReloaded(page);
  } finally {
    await publisher.stop();
  }
});

/** The event's stream as viewers are told it (`content.HLSStream`). */
async function eventStream(request: APIRequestContext, eventId: string): Promise<string> {
  const answer = await request.get(`/api/event/get_by_id/id/${eventId}`);
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { content: { content: { HLSStream: string } } }).content.content.HLSStream;
}
