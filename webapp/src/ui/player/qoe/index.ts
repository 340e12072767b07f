/*
 * The player's quality-of-experience reporting (issue 32 §1): the beacons of each view, sent to
 * POST /api/qoe/beacons, and CMCD on its media requests. It loads with the player, in a chunk of
 * its own (vite.config.ts `player-qoe`, fetched beside the player's). One queue for the page,
 * whatever the number of players on it.
 */
import { api } from "@/api/client";
import { anonymousIds } from "./anonymousId";
import { BeaconQueue, retryAfterOf, type Batch, type SendOutcome } from "./beaconQueue";
import { PlayerReport, type ReportedEngine } from "./playerReport";

export type { PlayerReport } from "./playerReport";

/** The server's settings (GET /api/config `qoe`). */
export interface ReportSettings {
  /** The share of views that report: 0 for none. */
  sampleRate: number;
  batchSeconds: number;
}

let queue: BeaconQueue | null = null;
const reports = new Set<PlayerReport>();
let watchingPage = false;

async function send(batch: Batch): Promise<SendOutcome> {
  // The one API client adds the viewer's bearer token when signed in (navigator.sendBeacon could
  // not); keepalive lets a batch sent as the page goes arrive after it.
  const { response } = await api.POST("/qoe/beacons", { body: batch, keepalive: true });
  return retryAfterOf(response);
}

function pageQueue(batchSeconds: number): BeaconQueue {
  queue ??= new BeaconQueue({ send, anonymousId: anonymousIds(), batchSeconds });
  return queue;
}

function watchPage(): void {
  if (watchingPage) return;
  watchingPage = true;
  // Hidden, the page may never be seen again (phones end hidden tabs): what played so far goes now.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "hidden") return;
    for (const report of reports) report.checkpoint();
    void queue?.flush();
  });
  // The page goes (or into the back/forward cache): its views end.
  window.addEventListener("pagehide", () => {
    for (const report of reports) report.end();
    void queue?.flush();
  });
}

/** Reports the views `video` plays through `engine`; nothing is sent when the sample rate is 0. */
export function reportPlayer(video: HTMLVideoElement, engine: ReportedEngine, settings: ReportSettings): PlayerReport {
  const report: PlayerReport = new PlayerReport(video, engine, {
    sampleRate: settings.sampleRate,
    emit: (beacon) => pageQueue(settings.batchSeconds).push(beacon),
    onDestroy: () => reports.delete(report),
  });
  reports.add(report);
  watchPage();
  return report;
}
