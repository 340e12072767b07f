// The webapp's budgets (issue: webapp), measured, not asserted: first-load JavaScript of the home
// page (gzip, what Chromium actually downloads), the Lighthouse performance score of the home
// page under mobile emulation, the event page's JavaScript and the time from navigation to the
// first playing frame of a live event (issue: player). Runs the built webapp on a freshly seeded
// server.
import { spawn, execFileSync } from "node:child_process";
import { readFileSync, mkdirSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { chromium } from "@playwright/test";

const port = Number(process.env.BENCH_PORT ?? 18790);
const base = `http://127.0.0.1:${port}`;
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
const SCORE_AIM = 90;
// Time to first frame on a live event page: aims for the median, cold (a new profile) and warm.
const TTFF_COLD_AIM_MS = 1000;
const TTFF_WARM_AIM_MS = 500;
const TTFF_RUNS = Number(process.env.BENCH_TTFF_RUNS ?? 7);

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
 * and its static imports, the player's chunk (hls.js, media-chrome: fetched as the route starts)
 * and the English messages the page shows. The VAST client is apart: only events with an ad load it.
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
  visit("src/features/catalog/pages/EventPage.tsx");
  visit("src/ui/player/PlayerView.tsx");
  for (const ns of ["common", "catalog", "event", "errors", "player"]) visit(`src/i18n/locales/en/${ns}.json`);
  const kb = (list) => +(list.reduce((sum, file) => sum + gz(file), 0) / 1024).toFixed(1);
  const js = [...files].filter((file) => file.endsWith(".js"));
  const player = manifest["src/ui/player/PlayerView.tsx"]?.file;
  const vast = Object.entries(manifest).find(([key]) => key.includes("@dailymotion/vast-client"))?.[1]?.file;
  return { gzipKb: kb(js), playerChunkKb: player ? kb([player]) : null, vastChunkKb: vast ? kb([vast]) : null };
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

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

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
 * Time to first frame on a live event page, each run a new navigation: cold in a new browser
 * profile every time (empty cache), warm in one profile that has seen the page (cached code).
 */
async function timeToFirstFrame(runs) {
  const url = `${base}/events/${await liveEventId()}`;
  const browser = await chromium.launch({ executablePath: chromePath, args: flags.slice(1) });
  try {
    const cold = [];
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext();
      cold.push(await firstFrameOn(await context.newPage(), url));
      await context.close();
    }
    const warm = [];
    const context = await browser.newContext();
    const page = await context.newPage();
    await firstFrameOn(page, url);
    for (let run = 0; run < runs; run++) {
      await page.goto("about:blank");
      warm.push(await firstFrameOn(page, url));
    }
    await context.close();
    return { url, cold, warm, coldMedianMs: median(cold), warmMedianMs: median(warm) };
  } finally {
    await browser.close();
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

function lighthouse(runs = 3) {
  mkdirSync("bench-results", { recursive: true });
  const scores = [];
  let last;
  for (let run = 0; run < runs; run++) {
    const out = join("bench-results", `lighthouse-${run}.json`);
    execFileSync(
      "npx",
      [
        "lighthouse",
        `${base}/`,
        "--only-categories=performance",
        "--output=json",
        `--output-path=${out}`,
        "--quiet",
        `--chrome-flags=${flags.join(" ")}`,
      ],
      { env: { ...process.env, CHROME_PATH: chromePath }, stdio: "inherit" },
    );
    last = JSON.parse(readFileSync(out, "utf8"));
    scores.push(Math.round(last.categories.performance.score * 100));
  }
  const metric = (id) => last.audits[id]?.displayValue;
  return {
    scores,
    median: scores.sort((a, b) => a - b)[Math.floor(scores.length / 2)],
    fcp: metric("first-contentful-paint"),
    lcp: metric("largest-contentful-paint"),
    tbt: metric("total-blocking-time"),
    cls: metric("cumulative-layout-shift"),
    si: metric("speed-index"),
  };
}

const server = spawn("bash", ["e2e/serve.sh"], {
  env: { ...process.env, E2E_PORT: String(port) },
  stdio: "ignore",
  detached: true,
});
try {
  await waitFor(`${base}/api/health`, 90_000);
  const first = firstLoadFromManifest();
  const js = await firstLoadJs();
  const eventRoute = eventRouteFromManifest();
  const ttff = await timeToFirstFrame(TTFF_RUNS);
  const lh = lighthouse();
  const report = { firstLoad: first, fetchedUntilIdle: js, eventRoute, timeToFirstFrame: ttff, lighthouse: lh };
  writeFileSync(join("bench-results", "summary.json"), JSON.stringify(report, null, 2));
  console.log("\nwebapp budgets");
  for (const file of first.files) console.log(`  ${file.path.padEnd(48)} ${String(file.kb).padStart(7)} KB gzip`);
  console.log(
    `  first-load JavaScript of the home page: ${first.gzipKb} KB gzip; budget ${BUDGET_KB} KB: ${first.gzipKb <= BUDGET_KB ? "met" : "MISSED"}`,
  );
  console.log(
    `  all JavaScript fetched until the home page was idle (socket included): ${js.gzipKb} KB gzip (${js.rawKb} KB raw)`,
  );
  console.log(
    `  Lighthouse performance (mobile), runs ${lh.scores.join(", ")}: median ${lh.median}; aim ${SCORE_AIM}: ${lh.median >= SCORE_AIM ? "met" : "MISSED"}`,
  );
  console.log(`  FCP ${lh.fcp}, LCP ${lh.lcp}, TBT ${lh.tbt}, CLS ${lh.cls}, Speed Index ${lh.si}`);
  console.log(
    `  event page JavaScript: ${eventRoute.gzipKb} KB gzip, of which the player (hls.js, media-chrome) ${eventRoute.playerChunkKb} KB; the VAST client ${eventRoute.vastChunkKb} KB more when an event has an ad`,
  );
  const aim = (value, limit) => `${value} ms; aim ${limit} ms: ${value < limit ? "met" : "MISSED"}`;
  console.log(`  first frame of a live event, ${TTFF_RUNS} runs each (${ttff.url}):`);
  console.log(`    cold (new profile): ${ttff.cold.join(", ")}; median ${aim(ttff.coldMedianMs, TTFF_COLD_AIM_MS)}`);
  console.log(`    warm (cached code): ${ttff.warm.join(", ")}; median ${aim(ttff.warmMedianMs, TTFF_WARM_AIM_MS)}`);
} finally {
  process.kill(-server.pid, "SIGTERM");
}
