import { expect, test, type APIRequestContext } from "@playwright/test";
import { createEvent, goLive, roomJoined, staffToken } from "./event-support";

// Catch up, then live (issue 31 §2): a viewer who joins a live match late plays its key plays
// so far, in order, from one playlist, and then joins the live edge by itself; the key plays list
// follows the tags staff add.

const KICKOFF_AGO_MS = 20 * 60_000;
// Four key plays in the first 20 minutes, 4 s each (3 segments of 2 s at most): a short reel.
const KEY_PLAYS = [
  { at: 2 * 60, subtype: "goal", title: "Goal 2' - Alert Rovers" },
  { at: 6 * 60, subtype: "red_card", title: "Red card 6' - Alert United" },
  { at: 11 * 60, subtype: "penalty", title: "Penalty 11' - Alert Rovers" },
  { at: 17 * 60, subtype: "goal", title: "Goal 17' - Alert United" },
];

async function saveGlobalTag(request: APIRequestContext, staff: string, eventId: string, tag: (typeof KEY_PLAYS)[0]) {
  const answer = await request.post("/api/tag/saveV2", {
    headers: { Authorization: `Bearer ${staff}` },
    data: {
      targetId: eventId,
      title: tag.title,
      subtype: tag.subtype,
      type: "player",
      startTime: tag.at,
      endTime: tag.at + 4,
      videoType: "live",
      global: true,
    },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
}

/** A free match that kicked off twenty minutes ago, live now, with the key plays tagged by staff. */
async function lateMatch(request: APIRequestContext) {
  const staff = await staffToken(request);
  const kickoff = new Date(Date.now() - KICKOFF_AGO_MS).toISOString().replace(/\.\d+Z$/, "Z");
  const match = await createEvent(request, staff, {
    title: `Catch-up Rovers vs Catch-up United ${Date.now()}`,
    event_date: kickoff,
    gameStartDate: kickoff,
  });
  await goLive(request, staff, match._id);
  for (const tag of KEY_PLAYS.slice(0, 3)) await saveGlobalTag(request, staff, match._id, tag);
  return { match, staff };
}

test("Catch up plays the key plays so far in order, then joins the live edge by itself", async ({ page, request }) => {
  const { match, staff } = await lateMatch(request);
  const playlists: string[] = [];
  const reelSegments: string[] = [];
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (path.endsWith(".m3u8")) playlists.push(path);
    else if (path.includes("/keys-") && path.endsWith(".ts") && !reelSegments.includes(path)) reelSegments.push(path);
  });
  const joined = roomJoined(page, match._id);
  await page.goto(`/events/${match._id}`);
  const panel = page.getByRole("region", { name: "Key plays" });
  await expect(panel.getByRole("listitem")).toHaveCount(3);
  await joined;

  // A key play tagged while the page is open joins the list without a reload.
  await saveGlobalTag(request, staff, match._id, KEY_PLAYS[3]);
  await expect(panel.getByRole("listitem")).toHaveCount(4);
  await expect(panel.getByRole("listitem")).toHaveText(KEY_PLAYS.map((play) => new RegExp(play.title)));

  await panel.getByRole("button", { name: "Catch up" }).click();
  const status = panel.getByRole("status");
  for (let n = 1; n <= KEY_PLAYS.length; n += 1) {
    await expect(status).toContainText(`key play ${n} of ${KEY_PLAYS.length}`, { timeout: 20_000 });
  }
  // One playlist, cut from the live stream: its segments in stream order, in four runs.
  expect(playlists.some((path) => path.includes("/keys-"))).toBe(true);
  const numbers = reelSegments.map((name) => Number(/seg-(\d+)\.ts/.exec(name)![1]));
  expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  const runs = numbers.filter((n, i) => i === 0 || n !== numbers[i - 1] + 1).length;
  expect(runs).toBe(KEY_PLAYS.length);

  // The reel ends: the live edge, by itself.
  const caughtUp = Date.now();
  await expect(page.getByText("You're live now.")).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByRole("button", { name: "Catch up" })).toBeVisible();
  await expect.poll(() => playlists.some((path) => path.endsWith("/live.m3u8")), { timeout: 10_000 }).toBe(true);
  const video = page.locator("video").first();
  const before = await video.evaluate((element: HTMLVideoElement) => element.currentTime);
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 10_000 })
    .toBeGreaterThan(before);
  test.info().annotations.push({ type: "live edge after the catch-up", description: `${Date.now() - caughtUp} ms` });
});

test("Skip to live leaves the catch-up at once", async ({ page, request }) => {
  const { match } = await lateMatch(request);
  await page.goto(`/events/${match._id}`);
  const panel = page.getByRole("region", { name: "Key plays" });
  await panel.getByRole("button", { name: "Catch up" }).click();
  await expect(panel.getByRole("status")).toContainText("key play 1 of 3", { timeout: 20_000 });
  await panel.getByRole("button", { name: "Skip to live" }).click();
  await expect(panel.getByRole("button", { name: "Catch up" })).toBeVisible();
  await expect(panel.getByRole("status")).toHaveCount(0);
});
