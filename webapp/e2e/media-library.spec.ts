import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test as base, type Locator, type Page, type Response } from "@playwright/test";
import { createEvent, staffToken } from "./event-support";
import { recordMasters, renditionHeights } from "./ingest-support";
import { attachAsArchive, cueAt, jobDone, makeTestVideo, parseCues, uploadWithCli } from "./media-support";
import { expectPlaying, playerVideo, startServer, videoState, type ExtraServer } from "./player-support";
import { freeTcpPorts } from "./seeded-server.mjs";

/**
 * Issue 29: a video staff upload with `touchline media upload` is transcoded by the queue into an
 * HLS ladder with seek previews, attached as its event's archive, and plays on the event page,
 * where hovering the seek bar shows the thumbnail of the moment under the pointer (§5). This file
 * has a seeded server of its own: the archive it makes never shows in other specs' catalogues,
 * and its transcoding loads no server they play from.
 */
const test = base.extend<object, { library: ExtraServer }>({
  library: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern: none
    async ({}, use) => {
      const [port] = await freeTcpPorts(1);
      const server = await startServer(port, {});
      await use(server);
      await server.stop();
    },
    { scope: "worker", timeout: 120_000 },
  ],
  baseURL: async ({ library }, use) => use(library.base),
});

// 45 s of 720p into three renditions, a poster and sprite sheets: 20-60 s on two busy cores.
const TRANSCODED_MS = 240_000;
const VIDEO = { seconds: 45, size: "1280x720", fps: 30 };

const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** A fan finds the match with the header's search box (its card shows `poster`) and opens it. */
async function openFromSearch(page: Page, title: string, poster: RegExp) {
  await page.goto("/");
  const box = page.getByRole("banner").getByRole("searchbox", { name: /search/i });
  await box.fill(title);
  await box.press("Enter");
  const card = page.getByRole("main").getByRole("link", { name: title }).first();
  await expect(card.locator("img").first()).toHaveAttribute("src", poster);
  await card.click();
  await expect(page).toHaveURL(/\/events\/[0-9a-f]{24}$/);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
}

/** The responses the page gets whose path matches `path`. */
function recordResponses(page: Page, path: RegExp): Response[] {
  const seen: Response[] = [];
  page.on("response", (response) => {
    if (path.test(new URL(response.url()).pathname)) seen.push(response);
  });
  return seen;
}

/** What the seek bar's preview shows: its sheet, whether it loaded, and where it is moved to. */
async function previewPicture(thumbnail: Locator) {
  return thumbnail.evaluate((element: HTMLElement) => {
    const img = element.shadowRoot!.querySelector("img")!;
    const moved = new DOMMatrixReadOnly(getComputedStyle(img).transform);
    return {
      src: img.src,
      loaded: img.complete && img.naturalWidth > 0,
      shift: [-moved.m41, -moved.m42],
      width: element.getBoundingClientRect().width,
    };
  });
}

test("an uploaded video plays as its event's archive in three renditions, with thumbnails when hovering the seek bar", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(TRANSCODED_MS + 180_000);
  const work = await mkdtemp(join(tmpdir(), "touchline-e2e-media-"));
  try {
    const file = await makeTestVideo(join(work, "final.mp4"), VIDEO);
    const staff = await staffToken(request);
    const title = `Uploaded final ${Date.now()}`;
    const event = await createEvent(request, staff, { title, status: "upcoming", event_date: daysFromNow(1) });

    const uploaded = await uploadWithCli(baseURL!, file, event._id, title, work);
    await jobDone(request, staff, uploaded.job, TRANSCODED_MS);
    const archived = await attachAsArchive(request, staff, uploaded.asset);
    expect(archived.status).toBe("archived");
    // Its own poster, a frame of the video, public like the league posters.
    const poster = new RegExp(`/media/stills/${uploaded.asset}\\.jpg\\?v=[0-9a-f]{12}$`);
    expect(archived.content.PosterH).toMatch(poster);
    const still = await request.get(archived.content.PosterH!);
    expect([still.status(), still.headers()["content-type"]]).toEqual([200, "image/jpeg"]);

    // A fan opens it as anyone would, from the search box.
    const masters = recordMasters(page);
    const vtts = recordResponses(page, /\/thumbnails\.vtt(\?|$)/);
    const sheets = recordResponses(page, /\/thumbs-\d{3}\.jpg$/);
    await openFromSearch(page, title, poster);
    await expectPlaying(page, 2, 30_000);
    // The source's 720p and the two rungs below it.
    await expect.poll(() => masters.length).toBeGreaterThan(0);
    expect(renditionHeights(masters.at(-1)!)).toEqual([720, 360, 234]);

    // The player gave the video the asset's thumbnails, under the stream's token.
    const track = playerVideo(page).locator('track[label="thumbnails"]');
    await expect(track).toHaveAttribute("kind", "metadata");
    const vttUrl = await track.evaluate((element: HTMLTrackElement) => element.src);
    expect(vttUrl).toMatch(
      new RegExp(`/media/vod/${uploaded.asset}/thumbnails\\.vtt\\?token=[0-9]+\\.[A-Za-z0-9_-]+$`),
    );
    await expect
      .poll(() => track.evaluate((element: HTMLTrackElement) => element.track.cues?.length ?? 0))
      .toBeGreaterThan(0);
    expect(vtts.map((response) => [response.status(), response.headers()["content-type"]])).toContainEqual([
      200,
      "text/vtt; charset=utf-8",
    ]);
    const cues = parseCues(await (await page.request.get(vttUrl)).text());
    expect(cues[0].start).toBe(0);
    expect(cues.at(-1)!.end).toBeCloseTo(VIDEO.seconds, 0);

    // Hovering the seek bar shows the thumbnail whose cue covers the time under the pointer.
    const { duration } = await videoState(page);
    const range = page.locator("media-time-range");
    const thumbnail = range.locator("media-preview-thumbnail");
    const box = (await range.boundingBox())!;
    const shown = new Set<string>();
    for (const share of [0.3, 0.7]) {
      await page.mouse.move(box.x + box.width * share, box.y + box.height / 2, { steps: 5 });
      await expect(thumbnail).toBeVisible();
      await expect.poll(async () => Number(await range.getAttribute("mediapreviewtime"))).toBeGreaterThan(0);
      const hovered = Number(await range.getAttribute("mediapreviewtime"));
      expect(Math.abs(hovered - share * duration), "the time under the pointer").toBeLessThan(3);
      const cue = cueAt(cues, hovered)!;
      expect(cue.start <= hovered && hovered < cue.end, `a cue covers ${hovered} s`).toBe(true);
      const [x, y, w, h] = new URLSearchParams(new URL(cue.text, vttUrl).hash.slice(1)).get("xywh")!.split(",");
      await expect(thumbnail).toHaveAttribute("mediapreviewimage", new URL(cue.text, vttUrl).href);
      await expect(thumbnail).toHaveAttribute("mediapreviewcoords", `${x} ${y} ${w} ${h}`);
      // The picture is the cue's sheet, loaded, moved so that the cue's place in it shows.
      await expect.poll(async () => (await previewPicture(thumbnail)).loaded).toBe(true);
      const picture = await previewPicture(thumbnail);
      expect(picture.src).toBe(new URL(cue.text.split("#")[0], vttUrl).href);
      const scale = picture.width / Number(w);
      expect(picture.shift[0]).toBeCloseTo(Number(x) * scale, 0);
      expect(picture.shift[1]).toBeCloseTo(Number(y) * scale, 0);
      shown.add(cue.text);
    }
    expect(shown.size, "two moments, two thumbnails").toBe(2);
    expect(sheets.length).toBeGreaterThan(0);
    for (const sheet of sheets) {
      expect(sheet.status()).toBe(200);
      expect(sheet.headers()["content-type"]).toBe("image/jpeg");
    }

    // Without its thumbnails (an asset whose previews are not made) it plays all the same: the
    // seek bar shows times alone, and no error.
    await page.route("**/thumbnails.vtt?*", (route) => route.fulfill({ status: 404, body: "" }));
    await page.reload();
    await expectPlaying(page, 2, 30_000);
    await expect(track).toHaveCount(1);
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
    await expect.poll(async () => Number(await range.getAttribute("mediapreviewtime"))).toBeGreaterThan(0);
    await expect(thumbnail).not.toHaveAttribute("mediapreviewimage", /./);
    await expect(page.getByRole("region", { name: "Video player" }).getByRole("alert")).toHaveCount(0);
    await expectPlaying(page, 1);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});
