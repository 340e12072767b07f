import { afterEach, describe, expect, it, vi } from "vitest";
import { reportPlayer, type PlayerReport } from "@/ui/player/qoe";
import type { Batch } from "@/ui/player/qoe/beaconQueue";
import { sessionStore, emptySession } from "@/session/store";
import { signIn } from "../../../session/fakeServer";

const EVENT = "5f1c0a8e2b3d4c5e6f7a8b9c";
const LIVE = "/media/live/asset-7/from-1767225600/index.m3u8?token=1767229200.AbC-_09xYz12345678901q";
const engine = {
  player: { name: "hls.js", version: "1.7.4" },
  playingBitrate: () => 400_000,
  playingHeight: () => 234,
};

/** The requests the page sends, as they went (keepalive, headers, body). */
function recordRequests() {
  const sent: { request: Request; batch: Batch }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: Request) => {
      sent.push({ request: input, batch: (await input.clone().json()) as Batch });
      return new Response(JSON.stringify({ content: { accepted: 1 }, error: false, message: "" }), {
        status: 202,
        headers: { "Content-Type": "application/json" },
      });
    }),
  );
  return sent;
}

/** A player of the page that has played its first frame. */
function aPlayingPlayer(sampleRate: number): PlayerReport {
  const video = document.createElement("video");
  const report = reportPlayer(video, engine, { sampleRate, batchSeconds: 10 });
  report.begin(LIVE, EVENT);
  video.dispatchEvent(new Event("play"));
  video.dispatchEvent(new Event("playing"));
  return report;
}

function hidePage(): void {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
  document.dispatchEvent(new Event("visibilitychange"));
}

describe("the page's QoE beacons on their way to the server", () => {
  const reports: PlayerReport[] = [];
  afterEach(() => {
    // Their exits go now, not with the next test's batch.
    for (const report of reports.splice(0)) report.destroy();
    window.dispatchEvent(new Event("pagehide"));
    Reflect.deleteProperty(document, "visibilityState");
    sessionStore.setState(emptySession());
    vi.unstubAllGlobals();
  });

  it("go when the page is hidden, with keepalive and the signed-in viewer's bearer token", async () => {
    signIn({ token: "access-qoe" });
    const sent = recordRequests();
    reports.push(aPlayingPlayer(1));
    hidePage();
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    const [{ request, batch }] = sent;
    expect(new URL(request.url).pathname).toBe("/api/qoe/beacons");
    expect(request.method).toBe("POST");
    expect(request.keepalive).toBe(true);
    expect(request.headers.get("Authorization")).toBe("Bearer access-qoe");
    expect(batch.anonymousId).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    // (and `watched` when the clock moved on meanwhile)
    expect(batch.beacons.map((beacon) => beacon.type).slice(0, 2)).toEqual(["start", "startup"]);
    expect(batch.beacons[0]).toMatchObject({ event: EVENT, asset: "asset-7", player: "hls.js" });
  });

  it("go without a token for a viewer signed out", async () => {
    const sent = recordRequests();
    reports.push(aPlayingPlayer(1));
    hidePage();
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].request.headers.has("Authorization")).toBe(false);
  });

  it("when the page goes, every view on it exits, and that goes at once", async () => {
    const sent = recordRequests();
    reports.push(aPlayingPlayer(1), aPlayingPlayer(1));
    const views = reports.map((report) => report.viewId);
    window.dispatchEvent(new Event("pagehide"));
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    const exits = sent[0].batch.beacons.filter((beacon) => beacon.type === "exit");
    expect(exits.map((beacon) => beacon.view)).toEqual(views);
    expect(reports.map((report) => report.viewId)).toEqual([null, null]);
  });

  it("never go with a sample rate of 0", async () => {
    const sent = recordRequests();
    reports.push(aPlayingPlayer(0));
    hidePage();
    window.dispatchEvent(new Event("pagehide"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toEqual([]);
  });
});
