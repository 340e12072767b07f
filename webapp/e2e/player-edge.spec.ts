import { expect, test, type Page } from "@playwright/test";
import { startEdgeCluster, type EdgeCluster } from "./cluster-support";
import { expectPlaying, expiryOf, findEvent, playerVideo, signInAsFan, tokenOf, videoState } from "./player-support";

// The player through the media edge (issue 30): `touchline cluster` with nginx in front of the
// streams' paths, checking tokens and caching for every viewer. Tokens live 30 s (the server's
// minimum), so a test outlasts one and plays on its renewal.
const TOKEN_SECONDS = 30;

let cluster: EdgeCluster;

test.beforeAll(async () => {
  test.setTimeout(200_000);
  cluster = await startEdgeCluster({ TOUCHLINE_STREAM_TOKEN_SECONDS: String(TOKEN_SECONDS) });
});

test.afterAll(async () => {
  await cluster?.stop();
});

interface MediaAnswer {
  at: number;
  path: string;
  /** The token in its query (the master, a renewal); null for a request on the cookie alone. */
  token: string | null;
  status: number;
  cache: string | null;
}

/** Every stream answer the page gets from now on, with the edge's X-Cache-Status. */
function recordMedia(page: Page): MediaAnswer[] {
  const answers: MediaAnswer[] = [];
  page.on("response", (answer) => {
    const url = new URL(answer.url());
    if (!/^\/media\/(vod|live)\//.test(url.pathname)) return;
    answers.push({
      at: Date.now() / 1000,
      path: url.pathname,
      token: tokenOf(answer.url()),
      status: answer.status(),
      cache: answer.headers()["x-cache-status"] ?? null,
    });
  });
  return answers;
}

/** Seconds the main video spent waiting for data after it first played (hls.js stalls). */
async function countStalls(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const state = { stalled: 0, since: 0, started: false };
    (window as unknown as { __stalls: typeof state }).__stalls = state;
    document.addEventListener(
      "playing",
      (event) => {
        if (!(event.target as Element).closest?.("media-controller")) return;
        if (state.since) state.stalled += performance.now() - state.since;
        state.since = 0;
        state.started = true;
      },
      true,
    );
    document.addEventListener(
      "waiting",
      (event) => {
        if (state.started && (event.target as Element).closest?.("media-controller")) state.since = performance.now();
      },
      true,
    );
  });
}

const stalledSeconds = (page: Page) =>
  page.evaluate(() => {
    const state = (window as unknown as { __stalls: { stalled: number; since: number } }).__stalls;
    return (state.stalled + (state.since ? performance.now() - state.since : 0)) / 1000;
  });

const segments = (answers: MediaAnswer[]) => answers.filter((answer) => !answer.path.endsWith(".m3u8"));

for (const status of ["live", "archived"] as const) {
  test(`a members' ${status} match plays through the edge across a token renewal, without a stall`, async ({
    page,
    request,
  }) => {
    test.setTimeout(150_000);
    await countStalls(page);
    const bearer = await signInAsFan(page, cluster.base);
    // A recording long enough to play past a token's lifetime.
    const minSeconds = status === "live" ? 0 : 1_000;
    const event = await findEvent(
      request,
      { status, commerce: "commerce_members_media", bearer, minSeconds },
      cluster.base,
    );

    const media = recordMedia(page);
    await page.goto(`${cluster.base}/events/${event._id}`);
    await expectPlaying(page, 1);
    const first = media[0].token!;
    const until = expiryOf(first) + 8;
    while (Date.now() / 1000 < until) {
      await expectPlaying(page, 1);
      await expect(page.locator(".player").getByRole("alert")).toHaveCount(0);
    }

    // Every stream answer came from the edge (it says how its cache served it), none was refused,
    // and what was asked after the first token expired went on a renewed one.
    expect(media.filter((answer) => answer.cache === null || answer.status >= 400)).toEqual([]);
    const kind = status === "live" ? "/media/live/" : "/media/vod/";
    expect(media.every((answer) => answer.path.startsWith(kind))).toBe(true);
    const renewed = media.filter((answer) => answer.token !== null && answer.token !== first);
    expect(renewed.length).toBeGreaterThan(0);
    expect(media.filter((answer) => answer.at > expiryOf(first) && answer.token === first)).toEqual([]);
    expect(segments(media).filter((answer) => answer.at > expiryOf(first)).length).toBeGreaterThan(3);
    // hls.js keeps a buffer of segments ahead: a renewal that left a gap would show as a stall.
    expect(await stalledSeconds(page)).toBeLessThan(1);
  });
}

test("an archived match plays and seeks through the edge, and a second viewer's segments come from its cache", async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const event = await findEvent(
    request,
    { status: "archived", commerce: "commerce_free_media", minSeconds: 1_000 },
    cluster.base,
  );
  const watch = async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await countStalls(page);
    const media = recordMedia(page);
    await page.goto(`${cluster.base}/events/${event._id}`);
    await expectPlaying(page, 2);
    // Halfway: the edge serves the segments there too.
    const { duration } = await videoState(page);
    await playerVideo(page).evaluate((video: HTMLVideoElement, to: number) => (video.currentTime = to), duration / 2);
    await expect.poll(async () => (await videoState(page)).currentTime).toBeGreaterThan(duration / 2);
    await expectPlaying(page, 2);
    const stalled = await stalledSeconds(page);
    await context.close();
    return { media, stalled };
  };

  const one = await watch();
  expect(one.media.filter((answer) => answer.cache === null || answer.status >= 400)).toEqual([]);
  expect(one.media.every((answer) => answer.path.startsWith("/media/vod/"))).toBe(true);
  expect(segments(one.media).length).toBeGreaterThan(2);

  // Another viewer with a token of their own: what the first was sent is a HIT for them, and the
  // edge asked a server process for each of those paths once in all.
  const two = await watch();
  const seen = new Set(one.media.map((answer) => answer.path));
  const shared = segments(two.media).filter((answer) => seen.has(answer.path));
  expect(shared.length).toBeGreaterThan(2);
  expect(shared.filter((answer) => answer.cache !== "HIT")).toEqual([]);
  expect(new Set(two.media.map((answer) => answer.token).filter(Boolean))).not.toEqual(
    new Set(one.media.map((answer) => answer.token).filter(Boolean)),
  );
  const fromOrigin = cluster
    .edgeLog()
    .map((line) => line.split(" "))
    .filter((fields) => fields.at(-2) !== "-")
    .map((fields) => new URL(fields[2], cluster.edge).pathname);
  for (const { path } of shared)
    expect(
      fromOrigin.filter((asked) => asked === path),
      path,
    ).toHaveLength(1);
  expect(one.stalled + two.stalled).toBeLessThan(1);
});

test("a signed-out viewer's stream stops at the edge within one token lifetime, and is not renewed", async ({
  playwright,
}) => {
  test.setTimeout(90_000);
  // A viewer's browser as requests: its cookies kept, as the player's are.
  const viewer = await playwright.request.newContext({ baseURL: cluster.base });
  const login = await viewer.post("/api/user/login", {
    data: {
      username: "fan@touchline.test",
      password: "touchline-fan-2026",
      device_id: "edge-e2e",
      device_name: "edge",
    },
  });
  expect(login.ok()).toBe(true);
  const bearer = ((await login.json()) as { content: { tokenData: { access_token: string } } }).content.tokenData
    .access_token;
  const event = await findEvent(viewer, { status: "live", commerce: "commerce_members_media", bearer });
  const answer = await viewer.get(`/api/event/get_by_id/id/${event._id}`, {
    headers: { Authorization: `Bearer ${bearer}` },
  });
  const url = ((await answer.json()) as { content: { content: { HLSStream: string } } }).content.content.HLSStream;
  const master = await viewer.get(url);
  expect(master.ok()).toBe(true);
  expect(master.headers()["x-cache-status"]).toBeDefined();
  const variant = new URL(
    (await master.text()).split("\n").find((line) => line.endsWith(".m3u8"))!,
    cluster.edge + url,
  ).pathname;

  expect((await viewer.post("/api/user/logout", { headers: { Authorization: `Bearer ${bearer}` } })).ok()).toBe(true);
  // No renewal for that session: its event answer is refused.
  const renewal = await viewer.get(`/api/event/get_by_id/id/${event._id}`, {
    headers: { Authorization: `Bearer ${bearer}` },
  });
  expect(
    renewal.status() === 401 ||
      ((await renewal.json()) as { content: { content: { HLSStream: string | null } } }).content.content.HLSStream ===
        null,
  ).toBe(true);
  // The token in hand plays on (the stated bound), on the cookie alone ...
  expect((await viewer.get(variant)).status()).toBe(200);
  // ... until it expires, and then the edge refuses it without asking a server process.
  const expires = expiryOf(tokenOf(cluster.base + url)!);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, (expires + 1.5) * 1000 - Date.now())));
  const refused = await viewer.get(variant);
  expect(refused.status()).toBe(403);
  // Expired, or gone with its cookie, whose Max-Age is the token's lifetime.
  expect(["stream_token_expired", "stream_access_denied"]).toContain(
    ((await refused.json()) as { messageErrorCode: string }).messageErrorCode,
  );
  // nginx writes a request's line once its answer has gone.
  const refusedLines = () => cluster.edgeLog().filter((line) => line.includes(`${variant} `) && line.includes(" 403 "));
  await expect.poll(() => refusedLines().length).toBeGreaterThan(0);
  const asked = refusedLines();
  expect(asked.every((line) => line.split(" ").at(-2) === "-")).toBe(true);
  await viewer.dispose();
});
