import { expect, test } from "@playwright/test";
import {
  createEvent,
  goLive,
  liveAsset,
  markPage,
  pageWasNotReloaded,
  playlistRequests,
  recordTraffic,
  roomJoined,
  setStreamWithCli,
  staffToken,
  touchline,
} from "./event-support";

// Each test waits on the staff CLI (a process of its own, event-support's `touchline`) as well as
// on the page.
test.describe.configure({ timeout: 120_000 });

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

test("a stream switch from `touchline events set-stream` changes the picture without a reload", async ({
  page,
  request,
  baseURL,
}) => {
  const token = await staffToken(request);
  const event = await createEvent(request, token, {
    title: `Stream switch ${Date.now()}`,
    status: "live",
    event_date: minutesFromNow(-10),
    content: { HLSStream: "/media/live/football.m3u8" },
  });
  const traffic = recordTraffic(page);
  const joined = roomJoined(page, event._id);
  await page.goto(`/events/${event._id}`);
  await expect(page.getByRole("heading", { level: 1, name: event.title })).toBeVisible();
  const first = liveAsset(event.content.HLSStream);
  await expect.poll(() => playlistRequests(traffic.requests, `/live/${first}/`).length).toBeGreaterThan(0);
  await joined;
  await markPage(page);

  // The hockey sample, through a new asset of the event's own.
  const said = await setStreamWithCli(baseURL!, event._id, "/media/live/hockey.m3u8");
  const moved = liveAsset(said);
  expect(moved).not.toBe(first);

  // The page reloads the event for the address signed for this viewer and plays the new stream.
  await expect.poll(() => playlistRequests(traffic.requests, `/live/${moved}/`).length).toBeGreaterThan(0);
  await expect
    .poll(() => traffic.requests.filter((url) => url.includes(`/live/${moved}/`) && url.includes(".ts")).length)
    .toBeGreaterThan(0);
  await expect(page.getByRole("heading", { level: 1, name: event.title })).toBeVisible();
  await pageWasNotReloaded(page);
});

test("a staff change of the event (`touchline events update`) shows on the open page", async ({
  page,
  request,
  baseURL,
}) => {
  const token = await staffToken(request);
  const event = await createEvent(request, token, {
    title: `Update ${Date.now()}`,
    status: "live",
    event_date: minutesFromNow(-5),
    content: { HLSStream: "/media/live/basketball.m3u8" },
  });
  const joined = roomJoined(page, event._id);
  await page.goto(`/events/${event._id}`);
  await expect(page.getByRole("heading", { level: 1, name: event.title })).toBeVisible();
  await joined;
  await markPage(page);

  await touchline(baseURL!, [
    "events",
    "--api-url",
    baseURL!,
    "update",
    event._id,
    "--title",
    "Renamed while you watch",
  ]);

  await expect(page.getByRole("heading", { level: 1, name: "Renamed while you watch" })).toBeVisible();
  await pageWasNotReloaded(page);
});

test("an upcoming event turns into the live player on the open page when staff start it", async ({ page, request }) => {
  const token = await staffToken(request);
  const event = await createEvent(request, token, {
    title: `Kick-off ${Date.now()}`,
    status: "upcoming",
    event_date: minutesFromNow(90),
  });
  const traffic = recordTraffic(page);
  const joined = roomJoined(page, event._id);
  await page.goto(`/events/${event._id}`);
  await expect(page.getByRole("timer")).toBeVisible();
  await expect(page.getByText("Kick-off in")).toBeVisible();
  await joined;
  await markPage(page);
  expect(playlistRequests(traffic.requests, ".m3u8")).toEqual([]);

  const live = liveAsset((await goLive(request, token, event._id)).content.HLSStream);

  await expect(page.getByRole("timer")).toHaveCount(0);
  await expect
    .poll(() => playlistRequests(traffic.requests, `/live/${live}/`).length, { timeout: 30_000 })
    .toBeGreaterThan(0);
  await expect(page.locator("video").first()).toBeAttached();
  await pageWasNotReloaded(page);
});
