/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import { availableParallelism } from "node:os";
import { fileURLToPath, URL } from "node:url";

// `make dev` runs Vite beside the Python server; these paths go to the server.
const server = process.env.TOUCHLINE_SERVER ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`;

/**
 * The app's stylesheet must not hold back the first paint: index.html carries the few inline
 * styles of its loading frame, and the stylesheet always arrives before the (larger) scripts
 * that render anything it styles. Each becomes a stylesheet once loaded, by index.html's inline
 * script (`data-stylesheet`): an `onload` attribute would be inline code, which the server's
 * Content-Security-Policy refuses.
 */
function nonBlockingStylesheet(): Plugin {
  return {
    name: "touchline-non-blocking-stylesheet",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler: (html) =>
        html.replace(
          /<link rel="stylesheet" crossorigin href="([^"]+)">/g,
          (_tag, href: string) =>
            `<link rel="preload" as="style" crossorigin href="${href}" data-stylesheet>` +
            `<noscript><link rel="stylesheet" crossorigin href="${href}"></noscript>`,
        ),
    },
  };
}

/**
 * The app's code starts once the loading frame is painted, not before: index.html's inline script
 * (`startApp`) inserts the entry and its module preloads after the first paint. Otherwise, with
 * the code at hand (a fast network, a warm cache), a phone would evaluate ~80 KB of modules
 * (about 140 ms) before it painted anything, the server's poster included. The list goes into the
 * page as data (a `type="application/json"` block runs nothing, so the page's policy is unchanged).
 */
function scriptsAfterFirstPaint(): Plugin {
  return {
    name: "touchline-scripts-after-first-paint",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler: (html) => {
        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(html);
        if (!entry) throw new Error("index.html has no module entry script to start after the first paint");
        const preloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g)];
        let page = html.replace(entry[0], "");
        for (const preload of preloads) page = page.replace(preload[0], "");
        const data = JSON.stringify({ entry: entry[1], preload: preloads.map((preload) => preload[1]) });
        return page.replace("</head>", `<script type="application/json" id="app-code">${data}</script></head>`);
      },
    },
  };
}

/**
 * What the production build resolves differently:
 * - react-router's package exports name its development build only (warnings and checks for
 *   developers in every route change); its own production build is beside it.
 * - react-i18next imports the `use-sync-external-store` shim, which React 18+ has built in.
 */
const productionAliases = [
  {
    find: /^react-router$/,
    replacement: fileURLToPath(new URL("./node_modules/react-router/dist/production/index.mjs", import.meta.url)),
  },
  {
    find: /^use-sync-external-store\/shim$/,
    replacement: fileURLToPath(new URL("./src/lib/syncExternalStore.ts", import.meta.url)),
  },
];

export default defineConfig(({ command }) => ({
  plugins: [react(), nonBlockingStylesheet(), scriptsAfterFirstPaint()],
  resolve: {
    alias: [
      { find: "@", replacement: fileURLToPath(new URL("./src", import.meta.url)) },
      ...(command === "build" ? productionAliases : []),
    ],
  },
  server: {
    port: 5173,
    proxy: {
      "/api": server,
      "/media": server,
      "/ws": { target: server, ws: true },
    },
  },
  build: {
    target: "es2022",
    sourcemap: false,
    // Read by scripts/bench.mjs to tell the first load's chunks from the lazy ones.
    manifest: true,
    // Every browser the app supports knows modulepreload.
    modulePreload: { polyfill: false },
    // The image fallbacks (src/ui/images) show only where a poster is missing or broken: files of
    // their own, fetched then, rather than six data URLs in every page's first-load JavaScript.
    assetsInlineLimit: (file) => (/[\\/]src[\\/]ui[\\/]images[\\/]/.test(file) ? false : undefined),
    // What every catalogue page shows (cards, rails, list queries and their mappers) in one chunk:
    // one request instead of a dozen, and it compresses better than its parts apart.
    rolldownOptions: {
      output: {
        // The lazy chunks by their hash alone: the first load carries the name of every file a
        // page preloads, and the names of the modules added nothing a browser needs.
        chunkFileNames: "assets/[hash].js",
        codeSplitting: {
          groups: [
            {
              name: "catalog-cards",
              test: /src[\\/](features[\\/]catalog[\\/](components[\\/]IdentityCard|lib[\\/]lists|api[\\/](listEvents|listIdentities)|homeRails)|ui[\\/]catalog[\\/](EventCard|Rail|States|icons|useAccessLabel)|session[\\/]catalog[\\/](listClips|viewer)|lib[\\/]kickoff|api[\\/]page|entities[\\/](event|identity))\./,
            },
            // The player's QoE reporting (src/ui/player/qoe): a chunk of its own, fetched beside the
            // player's (whose code imports it), so scripts/bench.mjs can weigh it. What describes
            // each request for CMCD stays with the engine (multiview plays without the reporting).
            {
              name: "player-qoe",
              test: /src[\\/]ui[\\/]player[\\/]qoe[\\/](?!mediaRequests\.)/,
            },
          ],
        },
      },
    },
  },
  test: {
    // A jsdom for every file costs about 0.7 s of CPU each, half the suite's: the files that test
    // no browser code (mappers, player maths, the API client) say `// @vitest-environment node`.
    environment: "jsdom",
    globals: true,
    include: ["tests/**/*.test.{ts,tsx}"],
    setupFiles: ["tests/setup.ts"],
    // Some tests import the whole app fresh; a busy CI machine needs more than the default 5 s.
    testTimeout: 20_000,
    // Vitest's default is one worker fewer than the cores: one worker on a two-core CI machine,
    // whose main thread then mostly waits. Two keep both cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
}));
