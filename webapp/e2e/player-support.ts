import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { startSeededServer, type ExtraServer } from "./seeded-server.mjs";

/** An event as the list answers it (the fields the player tests read). */
export interface ListedEvent {
  _id: string;
  title: string;
  status: string;
  commerce_type: string;
  availableForUser: boolean;
  content: { HLSStream: string | null; PanoStream: string | null };
  advertisements: { link: { vast: string | null } };
  duration: number | null;
  /** The kickoff (ISO 8601). */
  event_date: string;
}

interface EventQuery {
  status: "live" | "archived";
  /** Only events anyone may watch (free), or only those for signed-in viewers (members). */
  commerce?: "commerce_free_media" | "commerce_members_media";
  /** Leave out events with a pre-roll (default), or ask for them. */
  withAd?: boolean;
  /** Only videos at least this long (other tests may have archived short live streams since the seed). */
  minSeconds?: number;
  /** Only live events that kicked off at least this many seconds ago (others may have just gone live). */
  liveForSeconds?: number;
  bearer?: string;
}

/** Seeded events matching `query`, newest first, with the fields the player tests need. */
export async function findEvents(request: APIRequestContext, query: EventQuery, base = ""): Promise<ListedEvent[]> {
  const answer = await request.post(`${base}/api/event/list`, {
    data: { page: 0, size: 100, sort: "event_date", order: "desc", filters: { status: [query.status] } },
    headers: query.bearer ? { Authorization: `Bearer ${query.bearer}` } : {},
  });
  expect(answer.ok()).toBe(true);
  const entries = ((await answer.json()) as { content: { entries: ListedEvent[] } }).content.entries;
  return entries.filter(
    (event) =>
      (!query.commerce || event.commerce_type === query.commerce) &&
      (query.withAd ?? false) === !!event.advertisements.link.vast &&
      (event.duration ?? 0) >= (query.minSeconds ?? 0) &&
      Date.parse(event.event_date) <= Date.now() - (query.liveForSeconds ?? 0) * 1000 &&
      event.content.HLSStream !== null,
  );
}

export async function findEvent(request: APIRequestContext, query: EventQuery, base = ""): Promise<ListedEvent> {
  const [event] = await findEvents(request, query, base);
  expect(event, `a seeded ${query.status} event (${query.commerce ?? "any access"})`).toBeDefined();
  return event;
}

/** Signs the seeded fan in on the login page (of the server at `base`); their bearer token. */
export async function signInAsFan(page: Page, base = ""): Promise<string> {
  await page.goto(`${base}/auth/login`);
  await page.getByLabel(/e-?mail/i).fill("fan@touchline.test");
  await page.getByLabel(/password/i).fill("touchline-fan-2026");
  await page.getByRole("button", { name: /sign in|log in/i }).click();
  await expect(page).not.toHaveURL(/\/auth\/login/);
  const bearer = await page.evaluate(
    () => (JSON.parse(localStorage.getItem("ott-data") ?? "{}") as { token?: string }).token,
  );
  expect(bearer).toBeTruthy();
  return bearer!;
}

/** The player's <video> (the main one, not an ad's). */
export const playerVideo = (page: Page) => page.locator("media-controller video");

export interface VideoState {
  currentTime: number;
  paused: boolean;
  readyState: number;
  videoHeight: number;
  /** The seekable range: [start, end] of its last part; null when nothing is seekable. */
  seekable: [number, number] | null;
  duration: number;
}

export async function videoState(page: Page): Promise<VideoState> {
  return playerVideo(page).evaluate((video: HTMLVideoElement) => {
    const ranges = video.seekable;
    return {
      currentTime: video.currentTime,
      paused: video.paused,
      readyState: video.readyState,
      videoHeight: video.videoHeight,
      seekable: ranges.length ? [ranges.start(0), ranges.end(ranges.length - 1)] : null,
      duration: video.duration,
    } satisfies VideoState;
  });
}

/** Waits until the main video plays: not paused, and its time moves on by `seconds`. */
export async function expectPlaying(page: Page, seconds = 1, timeout = 15_000): Promise<void> {
  await expect(playerVideo(page)).toHaveCount(1, { timeout });
  const start = await videoState(page);
  await expect
    .poll(
      async () => {
        const now = await videoState(page);
        return !now.paused && now.currentTime - start.currentTime >= seconds;
      },
      { timeout, intervals: [250] },
    )
    .toBe(true);
}

/**
 * Waits until the controls know where the video is. A seek key (j, l, arrows) seeks from the time
 * the controls last heard of, which a busy machine reports late: a press right after a seek would
 * seek from before it (a person presses again once the shown time has changed).
 */
export async function controlsCaughtUp(page: Page): Promise<void> {
  await expect
    .poll(
      async () => {
        const shown = Number(await page.locator("media-time-range").getAttribute("mediacurrenttime"));
        return Math.abs(shown - (await videoState(page)).currentTime);
      },
      { timeout: 20_000 },
    )
    .toBeLessThan(2);
}

/** Milliseconds from navigation to the player's first frame (its `player:first-frame` mark). */
export async function firstFrameAt(page: Page, timeout = 15_000): Promise<number> {
  const handle = await page.waitForFunction(
    () => performance.getEntriesByName("player:first-frame")[0]?.startTime,
    null,
    { timeout, polling: 50 },
  );
  return (await handle.jsonValue()) as number;
}

/**
 * Serves the event answers of this page with `vast` as the event's pre-roll (the server's test VAST
 * with a case and an ad id of the test's own, so its tracking hits can be counted apart).
 */
export async function withPreroll(page: Page, vast: string): Promise<void> {
  await page.route("**/api/event/get_by_id/id/**", async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { content: ListedEvent };
    body.content.advertisements = { link: { vast } };
    await route.fulfill({ response, json: body });
  });
  // A first visit reads the event from the page itself (server/first_view.py): the same change there.
  await page.route("**/events/*", async (route) => {
    if (route.request().resourceType() !== "document") return route.fallback();
    const response = await route.fetch();
    const html = (await response.text()).replace(
      /(<script type="application\/json" id="first-answers">)(.*?)(<\/script>)/s,
      (_block, open: string, json: string, close: string) => {
        const entries = JSON.parse(json) as { request: { path: string }; answer: { content: ListedEvent } }[];
        for (const { request, answer } of entries)
          if (request.path.startsWith("/event/get_by_id/")) answer.content.advertisements = { link: { vast } };
        return open + JSON.stringify(entries).replace(/</g, "\\u003c") + close;
      },
    );
    const headers = { ...response.headers() };
    delete headers["content-encoding"];
    delete headers["content-length"];
    await route.fulfill({ response, headers, body: html });
  });
}

/** The test VAST's tracking hits for one ad id: `{ impression: 1, start: 1, ... }`. */
export async function adHits(request: APIRequestContext, ad: string): Promise<Record<string, number>> {
  const answer = await request.get(`/media/ads/track/hits?ad=${ad}`);
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { hits: Record<string, Record<string, number>> }).hits[ad] ?? {};
}

/** The stream token in a media address's query (`?token=<expires>.<mac>`); null on the cookie alone. */
export function tokenOf(url: string): string | null {
  return new URL(url).searchParams.get("token");
}

/** A stream token's expiry (epoch seconds). */
export function expiryOf(token: string): number {
  return Number(token.split(".")[0]);
}

export type { ExtraServer } from "./seeded-server.mjs";

/**
 * A second seeded server of the tests' own, with `env` on top (e.g. a short stream-token lifetime),
 * built from the same webapp bundle. It points the ifa sign-on at the main test server's provider
 * rather than starting a second one on the same port.
 */
export function startServer(port: number, env: Record<string, string>): Promise<ExtraServer> {
  return startSeededServer(port, { TOUCHLINE_IFA_ISSUER: "http://127.0.0.1:9400", ...env });
}

/**
 * Opens `url` until its pre-roll shows: on a busy machine the ad can miss its deadline (2 s for the
 * VAST), and then the match starts without it, as it should. A reload tries again (an ad that never
 * started is still due).
 */
/** What the ad break showed at one moment (recordAdBreak). */
export interface AdMoment {
  label: boolean;
  status: string;
  countdown: string | null;
  skipButton: boolean;
  matchInert: boolean;
}

/**
 * Records, from the page's first script on, every state the ad break goes through (on each change
 * of the DOM): a busy machine may move the 6 s ad past a state before a test could look at it.
 * Call before the page opens; the returned function reads what was recorded.
 */
export async function recordAdBreak(page: Page): Promise<() => Promise<AdMoment[]>> {
  await page.addInitScript(() => {
    const moments: AdMoment[] = [];
    (window as unknown as { __adMoments: AdMoment[] }).__adMoments = moments;
    const look = () => {
      const region = document.querySelector('section[aria-label="Advertisement"]');
      if (!region) return;
      const countdown = [...region.querySelectorAll("span")].find((e) => /^Skip in \d$/.test(e.textContent ?? ""));
      const moment: AdMoment = {
        label: [...region.querySelectorAll("span")].some((e) => e.textContent === "Ad"),
        status: region.querySelector('[role="status"]')?.textContent ?? "",
        countdown: countdown?.textContent ?? null,
        skipButton: [...region.querySelectorAll("button")].some((e) => e.textContent === "Skip ad"),
        matchInert: document.querySelector("media-controller")?.hasAttribute("inert") ?? false,
      };
      const last = moments[moments.length - 1];
      if (!last || JSON.stringify(last) !== JSON.stringify(moment)) moments.push(moment);
    };
    new MutationObserver(look).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  });
  return () => page.evaluate(() => (window as unknown as { __adMoments: AdMoment[] }).__adMoments);
}

export async function openWithAd(page: Page, url: string) {
  const adBreak = page.getByRole("region", { name: "Advertisement" });
  await page.goto(url);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (await adBreak.isVisible()) return;
    try {
      await expect(adBreak).toBeVisible({ timeout: 6_000 });
      return;
    } catch {
      await page.reload();
    }
  }
  await expect(adBreak).toBeVisible();
}
