import { execFileSync } from "node:child_process";
import type { Page, Response } from "@playwright/test";
import { ingestServerSettings } from "./seeded-server.mjs";
import { startServer, type ExtraServer } from "./player-support";

export { publishTestPattern, type Publisher } from "./seeded-server.mjs";

/**
 * A seeded server of the tests' own with the live ingest on: nginx-rtmp and the SRT listeners on
 * ports found free just before, so it never meets another run's ingest or the shared e2e servers
 * (which run without one). `srtPorts` is how many stream keys may take SRT at once.
 */
export async function startIngestServer(srtPorts: number): Promise<ExtraServer> {
  const { port, env } = await ingestServerSettings(srtPorts);
  return startServer(port, env);
}

/** The heights of the renditions a master playlist offers, in its order. */
export function renditionHeights(master: string): number[] {
  return [...master.matchAll(/#EXT-X-STREAM-INF:[^\n]*RESOLUTION=\d+x(\d+)/g)].map((match) => Number(match[1]));
}

/** The bodies of the playlists the page loads that `keep` accepts, in order. */
function recordPlaylists(page: Page, keep: (body: string) => boolean): string[] {
  const bodies: string[] = [];
  page.on("response", (response: Response) => {
    if (!new URL(response.url()).pathname.endsWith(".m3u8") || !response.ok()) return;
    response.text().then(
      (body) => {
        if (keep(body)) bodies.push(body);
      },
      () => undefined,
    );
  });
  return bodies;
}

/** The bodies of every master playlist (one listing renditions) the page loads, in order. */
export function recordMasters(page: Page): string[] {
  return recordPlaylists(page, (body) => body.includes("#EXT-X-STREAM-INF"));
}

/** The bodies of every media playlist (one listing segments) the page loads, in order. */
export function recordMediaPlaylists(page: Page): string[] {
  return recordPlaylists(page, (body) => body.includes("#EXTINF"));
}

/**
 * Kills (SIGKILL) the ffmpeg that transcodes the live asset `assetId` into its ladder, as a crash
 * would: the one whose outputs are that asset's runs (`<asset>/%v/run-<n>.m3u8`). Whether one was.
 */
export function killTranscoder(assetId: string): boolean {
  try {
    execFileSync("pkill", ["-KILL", "-f", `${assetId}/%v/run-`]);
    return true;
  } catch {
    return false; // pkill exits 1 when no process matched
  }
}
