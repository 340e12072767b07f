// The webapp's budgets (issue: webapp), measured, not asserted: first-load JavaScript of the home
// page (gzip, what Chromium actually downloads) and the Lighthouse performance score of the home
// page under mobile emulation. Runs the built webapp on a freshly seeded server.
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
  const lh = lighthouse();
  const report = { firstLoad: first, fetchedUntilIdle: js, lighthouse: lh };
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
} finally {
  process.kill(-server.pid, "SIGTERM");
}
