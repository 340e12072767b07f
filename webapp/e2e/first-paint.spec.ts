import { expect, test, type Page } from "@playwright/test";
import { createEvent, staffToken } from "./event-support";
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
