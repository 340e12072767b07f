import { expect, test } from "@playwright/test";
import {
  createEvent,
  listEvents,
  newViewer,
  playlistRequests,
  recordTraffic,
  signInOnPage,
  staffToken,
  videoTime,
} from "./event-support";

test("a signed-in viewer tags a moment, renames and deletes it, and cuts, plays, renames and deletes a clip", async ({
  page,
  request,
}) => {
  // Some twenty steps, each a request and a render: on a busy two-core machine, over a minute and a half.
  test.setTimeout(150_000);
  const archived = await listEvents(request, { status: ["archived"], media_type: ["event"] });
  const game = archived.find((event) => event.commerce_type === "commerce_free_media" && event.content.HLSStream);
  expect(game, "a free archived game to watch").toBeDefined();
  const viewer = await newViewer(request, "tagger");
  const traffic = recordTraffic(page);
  await signInOnPage(page, viewer, `/events/${game!._id}`);

  // Tags and clips are taken at the player's current time: let it play a little.
  await expect.poll(() => videoTime(page), { timeout: 20_000 }).toBeGreaterThan(2);

  // A moment.
  const moments = page.getByRole("region", { name: "Moments" });
  await page.getByRole("button", { name: "Tag this moment" }).click();
  await page.getByLabel(/^Name the moment at /).fill("First chance");
  await page.getByRole("button", { name: "Save moment" }).click();
  await expect(page.getByText(/^Moment at .* saved\.$/)).toBeVisible();
  await expect(moments.getByRole("button", { name: /First chance/ }).first()).toBeVisible();

  await moments.getByRole("button", { name: "Rename First chance" }).click();
  await moments.getByLabel("New name for “First chance”").fill("Big chance");
  await moments.getByRole("button", { name: "Save", exact: true }).click();
  await expect(moments.getByRole("button", { name: /Go to .* Big chance/ })).toBeVisible();

  await moments.getByRole("button", { name: "Delete Big chance" }).click();
  await moments.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(moments.getByText("Moment “Big chance” deleted.")).toBeVisible();
  await expect(moments.getByRole("button", { name: /Big chance/ })).toHaveCount(0);

  // A clip, marked in and out as the match plays.
  await page.getByRole("button", { name: "Mark in" }).click();
  const markedIn = await videoTime(page);
  await expect.poll(() => videoTime(page), { timeout: 15_000 }).toBeGreaterThan(markedIn + 3);
  await page.getByRole("button", { name: /^Mark out/ }).click();
  await page.getByLabel(/^Name your clip from /).fill("Build-up");
  await page.getByRole("button", { name: "Save clip" }).click();
  await expect(page.getByText("Clip “Build-up” saved.")).toBeVisible();

  const clips = page.getByRole("region", { name: "My clips" });
  const clip = clips.getByRole("button", { name: /Play\s+Build-up/ });
  await expect(clip).toBeVisible();
  const before = playlistRequests(traffic.requests, "/clip-").length;
  await clip.click();
  await expect(page.getByText("Now playing your clip “Build-up”")).toBeVisible();
  await expect.poll(() => playlistRequests(traffic.requests, "/clip-").length).toBeGreaterThan(before);
  await page.getByRole("button", { name: "Back to the match" }).click();
  await expect(page.getByText("Now playing your clip “Build-up”")).toHaveCount(0);

  await clips.getByRole("button", { name: "Rename Build-up" }).click();
  await clips.getByLabel("New name for “Build-up”").fill("Team move");
  await clips.getByRole("button", { name: "Save", exact: true }).click();
  await expect(clips.getByRole("button", { name: /Play\s+Team move/ })).toBeVisible();

  await clips.getByRole("button", { name: "Delete Team move" }).click();
  await clips.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(clips.getByText("Clip “Team move” deleted.")).toBeVisible();
  await expect(clips.getByText(/You have no clips of this event yet/)).toBeVisible();
});

test("a shared link with ?t= starts playback at that time", async ({ page, request }) => {
  const token = await staffToken(request);
  const event = await createEvent(request, token, {
    title: `Replay ${Date.now()}`,
    status: "archived",
    event_date: new Date(Date.now() - 3 * 3600_000).toISOString(),
    duration: 24,
    content: { HLSStream: "/media/vod/football/index.m3u8" },
  });
  // The sample is 24 s long: starting at 0 could not reach 15 s within the 8 s allowed here.
  await page.goto(`/events/${event._id}?t=15s`);
  await expect.poll(() => videoTime(page), { timeout: 8_000 }).toBeGreaterThanOrEqual(15);

  // The page's own share link says where the viewer is.
  await page.getByRole("button", { name: "Share" }).click();
  await page.getByLabel(/^Start at /).check();
  await expect(page.getByLabel("Link to share")).toHaveValue(new RegExp(`/events/${event._id}\\?t=(1[5-9]|2\\d)$`));
});
