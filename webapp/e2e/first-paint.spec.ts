import { expect, test, type Page } from "@playwright/test";
import { createEvent, newViewer, signInOnPage, staffToken } from "./event-support";
import { findEvent } from "./player-support";

// What the page does before and around its first paint (issue: kickoff at scale, first paint).

const ANDROID_PHONE =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36";

/** The first paint and when the app's entry script was asked for, in the page's own clock. */
async function paintAndCode(page: Page) {
  return page.evaluate(() => {
    const paint = performance.getEntriesByName("first-paint")[0]?.startTime ?? null;
    const entry = performance
      .getEntriesByType("resource")
      .find((resource) => /\/assets\/index-[^/]+\.js$/.test(new URL(resource.name).pathname));
    return { paint, codeAsked: entry?.startTime ?? null };
  });
}

/** Every layout shift the page reported so far, with what moved. */
async function layoutShifts(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ value: number; moved: string[] }[]>((resolve) => {
        new PerformanceObserver((list) => {
          resolve(
            list.getEntries().map((entry) => {
              const shift = entry as PerformanceEntry & { value: number; sources?: { node?: Node }[] };
              const moved = (shift.sources ?? []).map(
                (source) => (source.node as Element | undefined)?.className ?? "?",
              );
              return { value: shift.value, moved };
            }),
          );
        }).observe({ type: "layout-shift", buffered: true });
        // No entries at all: the observer is never called.
        setTimeout(() => resolve([]), 500);
      }),
  );
}

for (const [name, path] of [
  ["home page", () => Promise.resolve("/")],
  ["live event's page", async (page: Page) => `/events/${(await findEvent(page.request, { status: "live" }))._id}`],
] as const) {
  test(`the ${name} paints its loading frame before it asks for the app's code`, async ({ page }) => {
    await page.goto(await path(page));
    // The app has replaced the loading frame.
    await expect(page.locator(".boot")).toHaveCount(0);
    await expect(page.locator("main")).toBeVisible();
    const { paint, codeAsked } = await paintAndCode(page);
    expect(paint, "a first paint").not.toBeNull();
    expect(codeAsked, "the entry script was loaded").not.toBeNull();
    expect(codeAsked!).toBeGreaterThanOrEqual(paint!);
  });
}

for (const kind of ["seeded live event, lists under the player", "new live event, nothing under the player"]) {
  test(`on a phone the app banner is part of the first render, and nothing on the page moves (${kind})`, async ({
    browser,
    request,
  }) => {
    const event = kind.startsWith("seeded")
      ? await findEvent(request, { status: "live" })
      : await createEvent(request, await staffToken(request), {
          title: `Nothing under it ${Date.now()}`,
          status: "live",
          event_date: new Date(Date.now() - 10 * 60_000).toISOString(),
          content: { HLSStream: "/media/live/football.m3u8" },
        });
    const context = await browser.newContext({
      userAgent: ANDROID_PHONE,
      viewport: { width: 412, height: 823 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await page.goto(`/events/${event._id}`);
    await expect(page.getByRole("complementary", { name: /app/i })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: event.title })).toBeVisible();
    await expect(page.locator("media-controller video")).toBeAttached();
    // Long enough for the lists below the player to come in as well.
    await page.waitForTimeout(1500);
    expect(await layoutShifts(page)).toEqual([]);
    await context.close();
  });
}

/** From the next page load on, counts every card skeleton put into the document (window.skeletonsSeen). */
async function countSkeletons(page: Page) {
  await page.addInitScript(() => {
    const counter = window as unknown as { skeletonsSeen: number };
    counter.skeletonsSeen = 0;
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (
            node instanceof Element &&
            (node.matches(".event-card--skeleton") || node.querySelector(".event-card--skeleton"))
          )
            counter.skeletonsSeen += 1;
    }).observe(document, { childList: true, subtree: true });
  });
}

/** The home page once the app has rendered it with cards; answers how many skeletons it showed. */
async function skeletonsOnHome(page: Page) {
  await page.goto("/");
  await expect(page.locator(".boot")).toHaveCount(0);
  await expect(page.locator(".event-card:not(.event-card--skeleton)").first()).toBeVisible();
  return page.evaluate(() => (window as unknown as { skeletonsSeen: number }).skeletonsSeen);
}

// Rendering skeletons first, the rails' answers would then render the whole page again in one
// long task (query updates are not time-sliced): the first render waits for the data instead.
test("the home page's first render has its rails filled: no card skeleton is ever put on the page", async ({
  page,
}) => {
  await countSkeletons(page);
  expect(await skeletonsOnHome(page)).toBe(0);
});

test("signed in, the home page's first render waits for rails the page could not carry", async ({ page, request }) => {
  const viewer = await newViewer(request, "rails");
  await signInOnPage(page, viewer, "/account");
  // A signed-in viewer's rails come from the API, not the page: slower than the page's code here.
  await page.route("**/api/event/list", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await route.continue();
  });
  await countSkeletons(page);
  expect(await skeletonsOnHome(page)).toBe(0);
});

// The suite runs with reduced motion (playwright.config.ts); the motion itself is checked here.
const liveBadgeAnimation = async (page: Page) => {
  await page.goto("/live");
  const badge = page.locator(".event-card__badge--live").first();
  await expect(badge).toBeVisible();
  return badge.evaluate((el) => getComputedStyle(el, "::before").animationName);
};

test.describe("a viewer who has not asked for less motion", () => {
  test.use({ reducedMotion: "no-preference" });

  test("sees a live card's badge pulse", async ({ page }) => {
    expect(await liveBadgeAnimation(page)).toBe("event-card-pulse");
  });
});

test("a viewer who asks for less motion sees a live card's badge still", async ({ page }) => {
  expect(await liveBadgeAnimation(page)).toBe("none");
});
