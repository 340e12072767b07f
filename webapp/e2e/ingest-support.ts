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

/** The bodies of every master playlist (one listing renditions) the page loads, in order. */
export function recordMasters(page: Page): string[] {
  const masters: string[] = [];
  page.on("response", (response: Response) => {
    if (!new URL(response.url()).pathname.endsWith(".m3u8") || !response.ok()) return;
    response.text().then(
      (body) => {
        if (body.includes("#EXT-X-STREAM-INF")) masters.push(body);
      },
      () => undefined,
    );
  });
  return masters;
}
