import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";

// Debian's Chromium (Playwright cannot download browsers here); override with CHROMIUM_PATH.
const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/**
 * Workers side by side, each with a seeded server of its own (ports E2E_PORT, E2E_PORT + 2, …):
 * a test never sees another worker's sign-ups, purchases or stream changes, exactly as when they
 * ran one after the other. This file is read again in every worker process, where Playwright
 * sets TEST_PARALLEL_INDEX: there `baseURL` is that worker's server.
 */
// Three by default: with two, a browser waiting on a video or a socket left a two-core machine a
// third idle (alone: 8:50 with two, 7:24 with three). Every extra worker is a server and a browser.
const workers = Number(process.env.E2E_WORKERS ?? 3);
const firstPort = Number(process.env.E2E_PORT ?? 18780);
const portOf = (slot: number) => firstPort + 2 * slot;
const port = portOf(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
export const baseURL = `http://127.0.0.1:${port}`;
/** Where the e2e servers write their confirmation mails (TOUCHLINE_MAIL_DROP_DIR): e2e/mailbox.ts
 * reads them. One for all of them: every test signs up with an address of its own. */
export const mailDir = process.env.E2E_MAIL_DIR ?? join(tmpdir(), `touchline-e2e-mail-${firstPort}`);
mkdirSync(mailDir, { recursive: true });

export default defineConfig({
  testDir: "e2e",
  timeout: 45_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers,
  // CI (.ci/run) retries a failed test once; locally a failure shows at once.
  retries: Number(process.env.E2E_RETRIES ?? (process.env.CI ? 1 : 0)),
  reporter: [["list"]],
  // Runs side by side (E2E_DIST) keep their traces apart too.
  outputDir: process.env.E2E_DIST ? `${process.env.E2E_DIST}-results` : "test-results",
  use: {
    baseURL,
    // A trace records every action's screenshots and DOM: on two cores that costs Chromium as much
    // as the test itself. It is recorded for a test's retry only (CI retries once), where it shows
    // the failure again.
    trace: "on-first-retry",
    // Decoration that never stops (a live card's pulse, a skeleton's shimmer) makes a software-
    // composited Chromium paint every frame. The app honours reduced motion; the motion itself is
    // checked in first-paint.spec.ts.
    reducedMotion: "reduce",
    launchOptions: {
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: Array.from({ length: workers }, (_, slot) => ({
    // Built first, so the tests never run against a stale bundle. E2E_DIST builds it elsewhere, so
    // that two runs side by side (each with its own E2E_PORT) never serve each other's half-built
    // files; the first server builds it, the others wait for that server before they start.
    command:
      slot > 0
        ? "bash e2e/serve.sh"
        : process.env.E2E_DIST
          ? `npx tsc -b && npx vite build --logLevel error --emptyOutDir --outDir "${process.env.E2E_DIST}" && node scripts/compress.mjs "${process.env.E2E_DIST}" && bash e2e/serve.sh`
          : process.env.E2E_BUILT // `make test-e2e` has just built webapp/dist (the Makefile's `webapp`)
            ? "bash e2e/serve.sh"
            : "npm run build --silent && bash e2e/serve.sh",
    url: `http://127.0.0.1:${portOf(slot)}/api/health`,
    env: {
      E2E_PORT: String(portOf(slot)),
      TOUCHLINE_MAIL_DROP_DIR: mailDir,
      ...(process.env.E2E_DIST ? { E2E_DIST: process.env.E2E_DIST } : {}),
    },
    reuseExistingServer: false,
    timeout: 180_000,
    // SIGTERM first, so serve.sh stops its server and removes its database and media (a SIGKILL,
    // Playwright's default, left them in the temporary directory run after run).
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 10_000 },
    stdout: "ignore" as const,
    stderr: "pipe" as const,
  })),
});
