// The webapp's budgets (issue: webapp), measured, not asserted: first-load JavaScript of the home
// page (gzip, what Chromium actually downloads), the Lighthouse performance score and LCP of the
// home page and of a live event's page under mobile emulation, the event page's JavaScript and
// the time from navigation to the first playing frame of a live event, and of the match when its
// pre-roll fails (issue: player); live latency through the real ingest (issue 28); and the time
// until four multiview tiles play (issue: multiview). Runs the built webapp on a freshly seeded server.
//
// BENCH_URL: measure a server already running there instead (seeded like e2e/serve.sh does). The
// latency part always starts servers of its own: it sets their ingest's segment length.
// BENCH_ONLY: some parts only, comma-separated: js, ttff, ads, lighthouse, latency, multiview (all by
// default). BENCH_MULTIVIEW_RUNS: multiview openings timed, cold and warm each (5 by default).
// BENCH_LIGHTHOUSE_RUNS: Lighthouse runs per page (5 by default; each report keeps its median).
// BENCH_LATENCY_SECONDS: how long the latency is sampled (60 by default); BENCH_LATENCY_RESOLUTION:
// the published test pattern's size (1280x720 by default).
import { spawn, execFileSync } from "node:child_process";
import { readFileSync, mkdirSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { ingestServerSettings, publishTestPattern, startSeededServer, STAFF } from "../e2e/seeded-server.mjs";

const port = Number(process.env.BENCH_PORT ?? 18790);
const base = process.env.BENCH_URL?.replace(/\/$/, "") ?? `http://127.0.0.1:${port}`;
const parts = new Set(
  (process.env.BENCH_ONLY ?? "js,ttff,ads,lighthouse,latency,multiview").split(",").map((part) => part.trim()),
);
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5);
const chromePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const flags = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const BUDGET_KB = 150;
// The player's quality-of-experience reporting (issue 32 §1: beacons and CMCD), a chunk of its own
// fetched with the player's: what it adds to the event page's JavaScript, but for the engine's
// hooks (each media request described for CMCD: under 1 KB, in the player's chunk).
const QOE_BUDGET_KB = 5;
const SCORE_AIM = 95;
const LCP_AIM_MS = 2500;
// Time to first frame on a live event page: aims for the median, cold (a new profile) and warm.
const TTFF_COLD_AIM_MS = 1000;
const TTFF_WARM_AIM_MS = 500;
const TTFF_RUNS = Number(process.env.BENCH_TTFF_RUNS ?? 7);
// Multiview (issue: multiview): from opening a shared address of four live events to all four
// tiles playing (each tile's `multiview:tile-playing` mark), signed in as the seeded fan.
const MULTIVIEW_RUNS = Number(process.env.BENCH_MULTIVIEW_RUNS ?? 5);
const MULTIVIEW_TILES = 4;
const FAN = { email: "fan@touchline.test", password: "touchline-fan-2026" };
// A pre-roll that fails never holds the match up (issue: event page and player): the first frame
// within 3.5 s of navigation, whatever the VAST does. The player drops a VAST at 2 s (src/ui/player/ads.ts).
const AD_FAILURE_AIM_MS = 3500;
const AD_FAILURE_CASES = ["empty", "broken", "slow", "missing-media"];
// Live latency (issue 28): `Date.now()` minus hls.js's `playingDate` (the program date-time of the
// frame on screen) once a second, with the ingest's segments of each length; aims for the median.
const LATENCY_AIM_MS = { 2: 6000, 1: 4000 };
const LATENCY_SAMPLE_SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 60);
// The test pattern's size: a smaller one (640x360, a two-rung ladder) tells the chain's own latency
// apart from a machine too busy to transcode 720p in real time beside the browser.
const LATENCY_RESOLUTION = process.env.BENCH_LATENCY_RESOLUTION ?? "1280x720";
// A viewer who opens the page mid-stream, sampled after the one who waited for the kickoff.
const LATE_JOINER_SECONDS = 20;
// Long enough for the page to turn live (about 10 s), be sampled, and then a second viewer's.
const PUBLISH_SECONDS = LATENCY_SAMPLE_SECONDS + LATE_JOINER_SECONDS + 40;

async function waitFor(url, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

const gz = (file) => gzipSync(readFileSync(join("dist", file)), { level: 9 }).length;

/**
 * First-load JavaScript of the home page, from Vite's manifest: the entry and everything it
 * imports statically, the home page's chunk and its static imports, and the English messages the
 * home page shows. Chunks loaded later on purpose (the socket once idle, other pages) are not in it.
 */
function firstLoadFromManifest() {
  const manifest = JSON.parse(readFileSync("dist/.vite/manifest.json", "utf8"));
  const files = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit("index.html");
  visit("src/features/catalog/pages/HomePage.tsx");
  for (const ns of ["common", "catalog"]) visit(`src/i18n/locales/en/${ns}.json`);
  const list = [...files].filter((file) => file.endsWith(".js")).sort();
  const gzip = list.reduce((sum, file) => sum + gz(file), 0);
  return {
    files: list.map((file) => ({ path: "/" + file, kb: +(gz(file) / 1024).toFixed(1) })),
    gzipKb: +(gzip / 1024).toFixed(1),
  };
}

/**
 * The event page's JavaScript, from Vite's manifest: what the first load needs, the page's chunk
 * and its static imports, the player's chunk (hls.js, media-chrome, the QoE reporting: fetched as
 * the route starts) and the English messages the page shows. The VAST client is apart: only
 * events with an ad load it.
 */
function eventRouteFromManifest() {
  const manifest = JSON.parse(readFileSync("dist/.vite/manifest.json", "utf8"));
  const files = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit("index.html");
  visit("src/features/watching/pages/EventPage.tsx");
  visit("src/ui/player/PlayerView.tsx");
  for (const ns of ["common", "catalog", "event", "errors", "player"]) visit(`src/i18n/locales/en/${ns}.json`);
  const kb = (list) => +(list.reduce((sum, file) => sum + gz(file), 0) / 1024).toFixed(1);
  const js = [...files].filter((file) => file.endsWith(".js"));
  const player = manifest["src/ui/player/PlayerView.tsx"]?.file;
  // A chunk of its own (vite.config.ts `player-qoe`), which the player's imports: counted above too.
  const qoe = Object.values(manifest).find((chunk) => chunk.name === "player-qoe")?.file;
  const vast = Object.entries(manifest).find(([key]) => key.includes("@dailymotion/vast-client"))?.[1]?.file;
  return {
    gzipKb: kb(js),
    playerChunkKb: player ? kb([player]) : null,
    qoeChunkKb: qoe ? kb([qoe]) : null,
    vastChunkKb: vast ? kb([vast]) : null,
  };
}

/** A free live event without a pre-roll, to time the first frame on. */
async function liveEventId() {
  const answer = await fetch(`${base}/api/event/list`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ page: 0, size: 50, sort: "event_date", order: "desc", filters: { status: ["live"] } }),
  });
  const entries = (await answer.json()).content.entries;
  const event = entries.find(
    (entry) => entry.content.HLSStream && entry.availableForUser && !entry.advertisements?.link?.vast,
  );
  if (!event) throw new Error("no free live event without an ad in the seed data");
  return event._id;
}

/** A free event with the seed's pre-roll, live if there is one: the failing VAST cases are timed on it. */
async function eventWithAd() {
  const answer = await fetch(`${base}/api/event/list`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ page: 0, size: 100, sort: "event_date", order: "desc", filters: {} }),
  });
  const entries = (await answer.json()).content.entries.filter(
    (entry) => entry.content.HLSStream && entry.availableForUser && entry.advertisements?.link?.vast,
  );
  const event = entries.find((entry) => entry.status === "live") ?? entries[0];
  if (!event) throw new Error("no free event with a pre-roll in the seed data");
  return event._id;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** The nearest-rank percentile `p` (0–100). */
const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * values.length) - 1)];

/** Milliseconds from navigation to the player's first frame (its `player:first-frame` mark). */
async function firstFrameOn(page, url) {
  await page.goto(url);
  const handle = await page.waitForFunction(
    () => performance.getEntriesByName("player:first-frame")[0]?.startTime,
    null,
    { timeout: 20_000, polling: 50 },
  );
  return Math.round(await handle.jsonValue());
}

/**
 * Times `measure(page)` `runs` times each way: cold in a new browser profile every run (empty
 * cache; `prepare(page)` first, e.g. a sign-in), warm in one profile that has done it once already
 * (cached code), each run a new navigation.
 */
async function coldAndWarm(runs, measure, { prepare = async () => undefined, contextOptions = {} } = {}) {
  const browser = await chromium.launch({ executablePath: chromePath, args: flags.slice(1) });
  try {
    const cold = [];
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext(contextOptions);
      const page = await context.newPage();
      await prepare(page);
      cold.push(await measure(page));
      await context.close();
    }
    const warm = [];
    const context = await browser.newContext(contextOptions);
    const page = await context.newPage();
    await prepare(page);
    await measure(page);
    for (let run = 0; run < runs; run++) {
      await page.goto("about:blank");
      warm.push(await measure(page));
    }
    await context.close();
    return { cold, warm, coldMedianMs: median(cold), warmMedianMs: median(warm) };
  } finally {
    await browser.close();
  }
}

/** Time to first frame on a live event page, cold and warm (coldAndWarm). */
async function timeToFirstFrame(runs) {
  const url = `${base}/events/${await liveEventId()}`;
  return { url, ...(await coldAndWarm(runs, (page) => firstFrameOn(page, url))) };
}

/**
 * Time to first frame of the match when its pre-roll fails: for each of the server's failing VAST
 * cases (server/media/ads.py), the event's VAST is asked with that case, in a new profile each run.
 */
async function adFailures(runs) {
  const url = `${base}/events/${await eventWithAd()}`;
  const browser = await chromium.launch({ executablePath: chromePath, args: flags.slice(1) });
  try {
    const cases = {};
    for (const name of AD_FAILURE_CASES) {
      const times = [];
      for (let run = 0; run < runs; run++) {
        const context = await browser.newContext();
        await context.route("**/media/ads/preroll.xml*", (route) => {
          const asked = new URL(route.request().url());
          asked.searchParams.set("case", name);
          asked.searchParams.set("ad", `bench-${name}-${run}`);
          return route.continue({ url: asked.toString() });
        });
        times.push(await firstFrameOn(await context.newPage(), url));
        await context.close();
      }
      cases[name] = { runs: times, medianMs: median(times), worstMs: Math.max(...times) };
    }
    return { url, cases };
  } finally {
    await browser.close();
  }
}

/** Four live events the seeded fan may watch (longest live first: none ends during the runs). */
async function multiviewEventIds() {
  const token = await accessToken(base, FAN);
  const answer = await fetch(`${base}/api/event/list`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({
      page: 0,
      size: 100,
      sort: "event_date",
      order: "asc",
      filters: { status: ["live"], media_type: ["event"] },
    }),
  });
  const ids = (await answer.json()).content.entries
    .filter((entry) => entry.availableForUser && entry.content.HLSStream)
    .map((entry) => entry._id)
    .slice(0, MULTIVIEW_TILES);
  if (ids.length < MULTIVIEW_TILES) throw new Error(`fewer than ${MULTIVIEW_TILES} live events the fan may watch`);
  return ids;
}

/** Signs the seeded fan in on the login page of `page`'s browser context (the session is kept there). */
async function signInAsFan(page) {
  await page.goto(`${base}/auth/login`);
  await page.getByLabel(/e-?mail/i).fill(FAN.email);
  await page.getByLabel(/password/i).fill(FAN.password);
  await page.getByRole("button", { name: /sign in|log in/i }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/auth/login"), { timeout: 20_000 });
}

/** Milliseconds from navigating to `url` to the last of the multiview tiles' first playing frames. */
async function tilesPlayingOn(page, url) {
  await page.goto(url);
  const handle = await page.waitForFunction(
    (count) => {
      const marks = performance.getEntriesByName("multiview:tile-playing");
      return marks.length >= count && Math.max(...marks.map((mark) => mark.startTime));
    },
    MULTIVIEW_TILES,
    { timeout: 60_000, polling: 50 },
  );
  return Math.round(await handle.jsonValue());
}

/**
 * Four multiview tiles starting: a shared address of four live events opened by the signed-in fan
 * on a full-HD screen, cold (a new profile each run, signed in first) and warm (coldAndWarm).
 */
async function multiviewStart(runs) {
  const url = `${base}/multiview?events=${(await multiviewEventIds()).join(",")}`;
  const timed = await coldAndWarm(runs, (page) => tilesPlayingOn(page, url), {
    prepare: signInAsFan,
    contextOptions: { viewport: { width: 1920, height: 1080 } },
  });
  return { url, ...timed };
}

/** The seeded staff account's access token on `server`. */
const staffToken = (server) => accessToken(server, STAFF);

/** A seeded account's access token on `server`. */
async function accessToken(server, account) {
  const answer = await fetch(`${server}/api/user/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      username: account.email,
      password: account.password,
      device_id: "bench",
      device_name: "bench",
      strategy: "refresh",
    }),
  });
  if (!answer.ok) throw new Error(`${account.email}'s sign-in answered ${answer.status}`);
  return (await answer.json()).content.tokenData.access_token;
}

/** A free match kicking off in ten minutes: within the ingest's autostart window, so publishing makes it live. */
async function upcomingEvent(server, token, title) {
  const answer = await fetch(`${server}/api/admin/events`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({
      title,
      sportType: "football",
      commerce_type: "commerce_free_media",
      status: "upcoming",
      event_date: new Date(Date.now() + 10 * 60_000).toISOString(),
    }),
  });
  if (!answer.ok) throw new Error(`creating the event answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()).content._id;
}

/** The event's ingest health as staff see it (its transcoder's speed, the age of its last segment). */
async function ingestHealth(server, token, eventId) {
  const answer = await fetch(`${server}/api/admin/events/${eventId}/ingest`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return answer.ok ? (await answer.json()).content : null;
}

/** Resolves once the page's video plays a frame whose program date-time the probe knows. */
const playingWithDate = (page) =>
  page.waitForFunction(
    () => {
      const element = globalThis.document.querySelector("media-controller video");
      return element && !element.paused && globalThis.__touchlinePlayer?.playingDate() != null;
    },
    null,
    { timeout: 30_000, polling: 100 },
  );

/**
 * Once a second for `seconds` (while `going()`): the page's latency (`Date.now() - playingDate`),
 * what hls.js counts behind the playlist's newest segment and aims for, and the ingest's health
 * then (its transcoder's speed, that segment's age). With the medians, and the stalls meanwhile.
 */
async function sampleLatency(page, seconds, health, going) {
  await page.locator("media-controller video").evaluate((element) => {
    globalThis.__benchStalls = 0;
    element.addEventListener("waiting", () => (globalThis.__benchStalls += 1));
  });
  const samples = [];
  const start = Date.now();
  for (let second = 0; second <= seconds && going(); second += 1) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + second * 1000 - Date.now())));
    const [sample, ingest] = await Promise.all([
      page.evaluate(() => {
        const probe = globalThis.__touchlinePlayer;
        const at = probe?.playingDate();
        return {
          latencyMs: at == null ? null : Date.now() - at,
          behindEdgeS: probe?.latency() ?? null,
          targetS: probe?.targetLatency() ?? null,
        };
      }),
      health(),
    ]);
    if (sample.latencyMs !== null)
      samples.push({ ...sample, speed: ingest?.speed ?? null, segmentAgeS: ingest?.lastSegmentAgeSeconds ?? null });
  }
  if (!samples.length) throw new Error("the playing page never gave a program date-time");
  const latencies = samples.map((sample) => sample.latencyMs);
  const medianOf = (key) => {
    const known = samples.map((sample) => sample[key]).filter((value) => value !== null);
    return known.length ? +median(known).toFixed(2) : null;
  };
  return {
    samples: latencies,
    medianMs: median(latencies),
    p95Ms: percentile(latencies, 95),
    behindEdgeMedianS: medianOf("behindEdgeS"),
    hlsTargetLatencyS: samples.at(-1).targetS,
    lastSegmentAgeMedianS: medianOf("segmentAgeS"),
    transcoderSpeedMedian: medianOf("speed"),
    stalls: await page.evaluate(() => globalThis.__benchStalls),
    // The machine's load meanwhile: the ladder is transcoded on it, beside the browser.
    loadAverage: +loadavg()[0].toFixed(2),
  };
}

/**
 * How far ahead of this machine's clock the live playlists' program date-times run, as `page` loads
 * them: for each media playlist, its last segment's PDT plus its duration minus when it arrived
 * (later than it was sent). Above 0, a segment was listed before the time its PDT says it ended:
 * the PDT is late, and `Date.now() - playingDate` short of the real delay, by at least that much.
 */
function watchPlaylistClock(page, aheadMs) {
  page.on("response", (response) => {
    if (!new URL(response.url()).pathname.endsWith(".m3u8")) return;
    const arrived = Date.now();
    response.text().then(
      (body) => {
        const last = [...body.matchAll(/#EXT-X-PROGRAM-DATE-TIME:(\S+)\s+#EXTINF:([\d.]+)/g)].at(-1);
        if (last) aheadMs.push(Date.parse(last[1]) + Number(last[2]) * 1000 - arrived);
      },
      () => undefined,
    );
  });
}

/** A new page of `browser` with the player's probe on (src/ui/player/probe.ts). */
async function probedPage(browser) {
  const page = await browser.newPage();
  await page.addInitScript(() => (globalThis.__touchlineProbe = true));
  return page;
}

/**
 * Live latency through the real ingest with `segmentSeconds`-second segments: a server of its own
 * with the ingest on, a viewer's page open on an upcoming match, then `touchline ingest
 * test-pattern` publishing to it. Measures the publisher's start to the page's first frame, then
 * samples that viewer's latency once a second while it plays. Then a viewer who opens the page
 * mid-stream, whom hls.js starts its target latency behind the newest segment (the first viewer
 * starts where the short first playlist begins, nearer).
 */
async function liveLatency(segmentSeconds) {
  const { port: serverPort, env } = await ingestServerSettings(1);
  const server = await startSeededServer(serverPort, {
    ...env,
    TOUCHLINE_LIVE_SEGMENT_SECONDS: String(segmentSeconds),
  });
  let browser = null;
  let publisher = null;
  try {
    const token = await staffToken(server.base);
    const eventId = await upcomingEvent(server.base, token, `Latency bench ${segmentSeconds} s ${Date.now()}`);
    const eventUrl = `${server.base}/events/${eventId}`;
    const health = () => ingestHealth(server.base, token, eventId);
    browser = await chromium.launch({ executablePath: chromePath, args: flags.slice(1) });
    const page = await probedPage(browser);
    const aheadMs = [];
    watchPlaylistClock(page, aheadMs);
    // The page must be in the event's room before publishing, to be told when the event goes live.
    const joined = new Promise((resolve) =>
      page.on("websocket", (socket) =>
        socket.on("framereceived", ({ payload }) => String(payload).includes(`event:${eventId}`) && resolve()),
      ),
    );
    await page.goto(eventUrl);
    await page.getByRole("timer").waitFor({ timeout: 20_000 });
    await joined;

    const publishedAt = Date.now();
    publisher = publishTestPattern(server.base, eventId, [
      "--duration",
      String(PUBLISH_SECONDS),
      "--resolution",
      LATENCY_RESOLUTION,
    ]);
    let publishing = true;
    const ended = publisher.ended.then(({ code, stderr }) => {
      publishing = false;
      throw new Error(`touchline ingest test-pattern ended (exit code ${code}):\n${stderr}`);
    });
    ended.catch(() => undefined); // heard through unlessEnded
    /** `promise`, or the publisher's end if that comes first (then `promise` fails unheard as the browser closes). */
    const unlessEnded = (promise) => {
      promise.catch(() => undefined);
      return Promise.race([promise, ended]);
    };
    const firstFrame = page
      .waitForFunction(
        () => {
          const mark = performance.getEntriesByName("player:first-frame")[0];
          return mark && performance.timeOrigin + mark.startTime;
        },
        null,
        { timeout: 90_000, polling: 50 },
      )
      .then((handle) => handle.jsonValue());
    const firstFrameMs = Math.round((await unlessEnded(firstFrame)) - publishedAt);
    await unlessEnded(playingWithDate(page));
    const waited = await sampleLatency(page, LATENCY_SAMPLE_SECONDS, health, () => publishing);
    await page.close(); // one video decoding at a time

    const late = await probedPage(browser);
    watchPlaylistClock(late, aheadMs);
    await late.goto(eventUrl);
    await unlessEnded(playingWithDate(late));
    const joinedLate = await sampleLatency(late, LATE_JOINER_SECONDS, health, () => publishing);
    return {
      segmentSeconds,
      firstFrameMs,
      ...waited,
      joinedLate,
      pdtAheadMs: aheadMs.length ? Math.round(Math.max(...aheadMs)) : null,
    };
  } finally {
    await publisher?.stop();
    await browser?.close();
    await server.stop();
  }
}

/** Every script Chromium fetched until the home page went quiet, the idle-time socket included. */
async function firstLoadJs() {
  const browser = await chromium.launch({ executablePath: chromePath, args: flags.slice(1) });
  const page = await browser.newPage();
  const scripts = new Set();
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin === base && url.pathname.endsWith(".js")) scripts.add(url.pathname);
  });
  await page.goto(`${base}/`, { waitUntil: "networkidle" });
  await browser.close();
  let raw = 0;
  let gzip = 0;
  const files = [];
  for (const path of [...scripts].sort()) {
    const bytes = readFileSync(join("dist", path));
    const compressed = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gzip += compressed;
    files.push({ path, kb: +(compressed / 1024).toFixed(1) });
  }
  return { files, rawKb: +(raw / 1024).toFixed(1), gzipKb: +(gzip / 1024).toFixed(1) };
}

/** Lighthouse's mobile performance run of `url`, `runs` times: each run's figures and the medians. */
function lighthouse(name, url, runs) {
  mkdirSync("bench-results", { recursive: true });
  const results = [];
  for (let run = 0; run < runs; run++) {
    const out = join("bench-results", `lighthouse-${name}-${run}.json`);
    execFileSync(
      "npx",
      [
        "lighthouse",
        url,
        "--only-categories=performance",
        "--output=json",
        `--output-path=${out}`,
        "--quiet",
        `--chrome-flags=${flags.join(" ")}`,
      ],
      { env: { ...process.env, CHROME_PATH: chromePath }, stdio: "inherit" },
    );
    const report = JSON.parse(readFileSync(out, "utf8"));
    const ms = (id) => Math.round(report.audits[id]?.numericValue ?? NaN);
    results.push({
      score: Math.round(report.categories.performance.score * 100),
      fcpMs: ms("first-contentful-paint"),
      lcpMs: ms("largest-contentful-paint"),
      tbtMs: ms("total-blocking-time"),
      cls: +(report.audits["cumulative-layout-shift"]?.numericValue ?? NaN).toFixed(3),
      siMs: ms("speed-index"),
    });
  }
  const of = (key) => median(results.map((result) => result[key]));
  return {
    url,
    runs: results,
    median: {
      score: of("score"),
      fcpMs: of("fcpMs"),
      lcpMs: of("lcpMs"),
      tbtMs: of("tbtMs"),
      cls: of("cls"),
      siMs: of("siMs"),
    },
  };
}

// The latency part brings servers of its own (with the ingest on).
const needsSeeded = ["js", "ttff", "ads", "lighthouse", "multiview"].some((part) => parts.has(part));
const server =
  process.env.BENCH_URL || !needsSeeded
    ? null
    : spawn("bash", ["e2e/serve.sh"], {
        env: { ...process.env, E2E_PORT: String(port) },
        stdio: "ignore",
        detached: true,
      });
try {
  if (needsSeeded) await waitFor(`${base}/api/health`, 90_000);
  const report = {};
  console.log("\nwebapp budgets");
  if (parts.has("js")) {
    const first = firstLoadFromManifest();
    const js = await firstLoadJs();
    const eventRoute = eventRouteFromManifest();
    Object.assign(report, { firstLoad: first, fetchedUntilIdle: js, eventRoute });
    for (const file of first.files) console.log(`  ${file.path.padEnd(48)} ${String(file.kb).padStart(7)} KB gzip`);
    console.log(
      `  first-load JavaScript of the home page: ${first.gzipKb} KB gzip; budget ${BUDGET_KB} KB: ${first.gzipKb <= BUDGET_KB ? "met" : "MISSED"}`,
    );
    console.log(
      `  all JavaScript fetched until the home page was idle (socket included): ${js.gzipKb} KB gzip (${js.rawKb} KB raw)`,
    );
    console.log(
      `  event page JavaScript: ${eventRoute.gzipKb} KB gzip, of which the player (hls.js, media-chrome) ${eventRoute.playerChunkKb} KB; the VAST client ${eventRoute.vastChunkKb} KB more when an event has an ad`,
    );
    const qoe = eventRoute.qoeChunkKb;
    console.log(
      `  the player's QoE reporting (beacons, CMCD; its own chunk, in the figure above): ${qoe} KB gzip; budget ${QOE_BUDGET_KB} KB: ${qoe !== null && qoe < QOE_BUDGET_KB ? "met" : "MISSED"}`,
    );
  }
  if (parts.has("ttff")) {
    const ttff = await timeToFirstFrame(TTFF_RUNS);
    report.timeToFirstFrame = ttff;
    const aim = (value, limit) => `${value} ms; aim ${limit} ms: ${value < limit ? "met" : "MISSED"}`;
    console.log(`  first frame of a live event, ${TTFF_RUNS} runs each (${ttff.url}):`);
    console.log(`    cold (new profile): ${ttff.cold.join(", ")}; median ${aim(ttff.coldMedianMs, TTFF_COLD_AIM_MS)}`);
    console.log(`    warm (cached code): ${ttff.warm.join(", ")}; median ${aim(ttff.warmMedianMs, TTFF_WARM_AIM_MS)}`);
  }
  if (parts.has("ads")) {
    const ads = await adFailures(Math.min(TTFF_RUNS, 5));
    report.adFailures = ads;
    console.log(`  first frame of the match when its pre-roll fails (${ads.url}):`);
    for (const [name, { runs, medianMs, worstMs }] of Object.entries(ads.cases))
      console.log(
        `    ${name.padEnd(13)} ${runs.join(", ")}; median ${medianMs} ms, worst ${worstMs} ms; aim ${AD_FAILURE_AIM_MS} ms: ${worstMs < AD_FAILURE_AIM_MS ? "met" : "MISSED"}`,
      );
  }
  if (parts.has("multiview")) {
    const multiview = await multiviewStart(MULTIVIEW_RUNS);
    report.multiview = multiview;
    const seconds = (ms) => (ms / 1000).toFixed(2);
    console.log(
      `  four multiview tiles start playing in ${seconds(multiview.warmMedianMs)} s (median of ${MULTIVIEW_RUNS} warm runs; cold, new profile: ${seconds(multiview.coldMedianMs)} s) from opening ${multiview.url}`,
    );
    console.log(`    cold: ${multiview.cold.join(", ")} ms; warm: ${multiview.warm.join(", ")} ms`);
  }
  if (parts.has("lighthouse")) {
    // The home page, and the page of the live event the first-frame timing plays (its poster, then its video).
    const pages = { home: `${base}/`, event: `${base}/events/${await liveEventId()}` };
    report.lighthouse = {};
    for (const [name, url] of Object.entries(pages)) {
      const lh = lighthouse(name, url, LIGHTHOUSE_RUNS);
      report.lighthouse[name] = lh;
      const { median: m } = lh;
      const met = m.score >= SCORE_AIM && m.lcpMs <= LCP_AIM_MS ? "met" : "MISSED";
      console.log(`  Lighthouse performance (mobile), ${name} page (${url}):`);
      for (const r of lh.runs)
        console.log(
          `    score ${r.score}: FCP ${r.fcpMs} ms, LCP ${r.lcpMs} ms, TBT ${r.tbtMs} ms, CLS ${r.cls}, SI ${r.siMs} ms`,
        );
      console.log(
        `    median score ${m.score}, LCP ${m.lcpMs} ms, TBT ${m.tbtMs} ms; aim ${SCORE_AIM} and LCP ≤ ${LCP_AIM_MS} ms: ${met}`,
      );
    }
  }
  if (parts.has("latency")) {
    report.liveLatency = [];
    for (const segmentSeconds of [2, 1]) {
      const run = await liveLatency(segmentSeconds);
      report.liveLatency.push(run);
      const aim = LATENCY_AIM_MS[segmentSeconds];
      console.log(
        `  live latency through the ingest, ${segmentSeconds} s segments (a ${LATENCY_RESOLUTION} test pattern over RTMP, ${run.samples.length} samples, one a second):`,
      );
      console.log(
        `    now − playingDate: median ${run.medianMs} ms, p95 ${run.p95Ms} ms; aim median ≤ ${aim} ms: ${run.medianMs <= aim ? "met" : "MISSED"}`,
      );
      console.log(
        `    hls.js plays median ${run.behindEdgeMedianS} s behind the playlist's newest segment (it aims ${run.hlsTargetLatencyS} s); that segment's age by its PDT: median ${run.lastSegmentAgeMedianS} s`,
      );
      console.log(
        `    stalls: ${run.stalls}; transcoder speed: median ${run.transcoderSpeedMedian}× real time; load average ${run.loadAverage} on ${availableParallelism()} cores`,
      );
      console.log(`    publisher's start to the first frame on the open event page: ${run.firstFrameMs} ms`);
      if (run.pdtAheadMs > 0)
        console.log(
          `    program date-times ran up to ${run.pdtAheadMs} ms ahead of the clock (a segment was listed before its PDT said it ended): the real delay is that much more at least`,
        );
      const late = run.joinedLate;
      console.log(
        `    a viewer opening the page mid-stream (${late.samples.length} samples): median ${late.medianMs} ms (aim: ${late.medianMs <= aim ? "met" : "MISSED"}), p95 ${late.p95Ms} ms; hls.js latency median ${late.behindEdgeMedianS} s (aims ${late.hlsTargetLatencyS} s); stalls: ${late.stalls}`,
      );
    }
  }
  mkdirSync("bench-results", { recursive: true });
  writeFileSync(join("bench-results", "summary.json"), JSON.stringify(report, null, 2));
} finally {
  if (server) process.kill(-server.pid, "SIGTERM");
}
