import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

// The server sends the page a Content-Security-Policy that allows exactly what the app loads
// (server/web.py, page_policy). These tests open the main pages, sign in and play streams (with
// and without a pre-roll) and fail on any violation the browser reports, from the page or from
// the player's shadow DOM.

interface Recorder {
  violations(): Promise<string[]>;
}

async function recordViolations(page: Page): Promise<Recorder> {
  const logged: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text())) logged.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener(
      "securitypolicyviolation",
      (event) => seen.push(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"}: ${event.sample}`),
      true,
    );
  });
  return {
    async violations() {
      const reported = await page.evaluate(
        () => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [],
      );
      return [...reported, ...logged];
    },
  };
}

interface ListedEvent {
  _id: string;
  status: string;
  commerce_type: string;
  content: { HLSStream: string | null };
  advertisements: { link: { vast: string | null } };
}

async function freeEvent(request: APIRequestContext, status: string, withAd: boolean): Promise<ListedEvent> {
  const answer = await request.post("/api/event/list", {
    data: { page: 0, size: 100, sort: "event_date", order: "desc", filters: { status: [status] } },
  });
  expect(answer.ok()).toBe(true);
  const entries = ((await answer.json()) as { content: { entries: ListedEvent[] } }).content.entries;
  const found = entries.find(
    (event) =>
      event.commerce_type === "commerce_free_media" &&
      event.content.HLSStream !== null &&
      !!event.advertisements.link.vast === withAd,
  );
  expect(found, `a free ${status} event ${withAd ? "with" : "without"} a pre-roll`).toBeDefined();
  return found!;
}

/** Waits until the page's main video has played for a moment. */
async function expectPlaying(page: Page): Promise<void> {
  const video = page.locator("media-controller video").first();
  await expect(video).toHaveCount(1, { timeout: 15_000 });
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => !element.paused && element.currentTime > 0.5), {
      timeout: 20_000,
    })
    .toBe(true);
}

test("the page carries the security headers and a policy without 'unsafe-inline' scripts", async ({ request }) => {
  const answer = await request.get("/live");
  const headers = answer.headers();
  const policy = headers["content-security-policy"];
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("object-src 'none'");
  expect(policy).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+(;|$)/);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["permissions-policy"]).toContain("camera=()");
  const api = await request.get("/api/config");
  expect(api.headers()["content-security-policy"]).toContain("default-src 'none'");
  expect(api.headers()["x-content-type-options"]).toBe("nosniff");
});

test("catalogue and sign-in pages load without a policy violation", async ({ page }) => {
  const recorder = await recordViolations(page);
  for (const path of ["/", "/live", "/upcoming", "/archive", "/search?q=mariners", "/auth/login/", "/auth/sign-up/"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
  }
  // The stylesheets applied (they arrive as preloads that index.html's script turns into sheets).
  const sheets = await page.evaluate(() => document.querySelectorAll('link[rel="stylesheet"][data-stylesheet]').length);
  expect(sheets).toBeGreaterThan(0);
  expect(await recorder.violations()).toEqual([]);
});

test("a signed-in viewer's pages and the socket run without a policy violation", async ({ page }) => {
  const recorder = await recordViolations(page);
  const sockets: string[] = [];
  page.on("websocket", (socket) => sockets.push(socket.url()));
  await page.goto("/auth/login/?redirect=%2Faccount");
  await page.getByLabel(/e-?mail/i).fill("fan@touchline.test");
  await page.getByLabel(/password/i).fill("touchline-fan-2026");
  await page.getByRole("button", { name: /sign in|log in/i }).click();
  await expect(page).toHaveURL((url) => url.pathname.startsWith("/account"));
  await page.waitForLoadState("networkidle");
  await page.goto("/live");
  await page.waitForLoadState("networkidle");
  expect(sockets.some((url) => url.includes("/ws/"))).toBe(true);
  expect(await recorder.violations()).toEqual([]);
});

test("playing a live and an archived stream runs without a policy violation", async ({ page, request }) => {
  const recorder = await recordViolations(page);
  for (const status of ["live", "archived"]) {
    const event = await freeEvent(request, status, false);
    await page.goto(`/events/${event._id}`);
    await expectPlaying(page);
  }
  expect(await recorder.violations()).toEqual([]);
});

test("a pre-roll and then the stream play without a policy violation", async ({ page, request }) => {
  const recorder = await recordViolations(page);
  const event = await freeEvent(request, "archived", true);
  await page.goto(`/events/${event._id}`);
  await expectPlaying(page);
  expect(await recorder.violations()).toEqual([]);
});
