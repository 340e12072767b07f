import { describe, expect, it } from "vitest";
import { liveThumbnailsUrl, parseLiveCues, placeCues, type LiveCue } from "@/ui/player/liveThumbnails";

const ASSET = "6c3f0c2e9b3d4e5f60718293";
/** A token shaped like the server's (`<expires>.<mac>`; the player never verifies it). */
const TOKEN = "1795007200.AAAAAAAAAAAAAAAAAAAAAA";
const BASE = `/media/live/${ASSET}/from-1795000000`;
const VTT_URL = `https://watch.example${BASE}/thumbnails.vtt?token=${TOKEN}`;
const KICKOFF_MS = Date.UTC(2026, 10, 29, 18, 0, 0);

const LIVE_VTT = [
  "WEBVTT",
  "",
  `at-${KICKOFF_MS}`,
  "00:00:00.000 --> 00:00:04.000",
  "thumbs-000000.jpg#xywh=0,0,160,90",
  "",
  `at-${KICKOFF_MS + 4000}`,
  "00:00:04.000 --> 00:00:08.000",
  "thumbs-000002.jpg#xywh=0,0,160,90",
  "",
  "a-cue-without-its-time",
  "00:00:08.000 --> 00:00:12.000",
  "thumbs-000004.jpg#xywh=0,0,160,90",
  "",
].join("\n");

/** The little of TextTrack and VTTCue that placing cues uses (jsdom has neither). */
class FakeTrack {
  cues: { startTime: number; endTime: number; text: string }[] = [];
  addCue(cue: { startTime: number; endTime: number; text: string }) {
    this.cues.push(cue);
  }
  removeCue(cue: unknown) {
    this.cues = this.cues.filter((c) => c !== cue);
  }
}
class FakeCue {
  constructor(
    public startTime: number,
    public endTime: number,
    public text: string,
  ) {}
}

describe("the seek previews of a live stream", () => {
  it("are its recording's thumbnails.vtt under the live token, for a live input's master only", () => {
    expect(liveThumbnailsUrl(`https://watch.example${BASE}/index.m3u8?token=${TOKEN}`)).toBe(VTT_URL);
    for (const url of [
      `/media/live/football/from-1795000000/index.m3u8?token=${TOKEN}`,
      `/media/vod/${ASSET}/index.m3u8?token=${TOKEN}`,
      `${BASE}/index.m3u8`,
    ])
      expect(liveThumbnailsUrl(url), url).toBeNull();
  });

  it("resolve the pictures against the page when the stream's address is a path", () => {
    const [first] = parseLiveCues(LIVE_VTT, `${BASE}/thumbnails.vtt?token=${TOKEN}`);
    expect(first.image).toBe(new URL(`${BASE}/thumbs-000000.jpg#xywh=0,0,160,90`, document.baseURI).href);
  });

  it("read each cue's wall-clock time, length and picture address, and skip a cue without its time", () => {
    expect(parseLiveCues(LIVE_VTT, VTT_URL)).toEqual([
      {
        wallClockMs: KICKOFF_MS,
        seconds: 4,
        image: `https://watch.example${BASE}/thumbs-000000.jpg#xywh=0,0,160,90`,
      },
      {
        wallClockMs: KICKOFF_MS + 4000,
        seconds: 4,
        image: `https://watch.example${BASE}/thumbs-000002.jpg#xywh=0,0,160,90`,
      },
    ]);
  });

  it("are placed on this player's own timeline through the stream's program date-times, replacing the last", () => {
    const globals = globalThis as unknown as { VTTCue?: unknown };
    const before = globals.VTTCue;
    globals.VTTCue = FakeCue;
    try {
      const track = new FakeTrack();
      const cues: LiveCue[] = parseLiveCues(LIVE_VTT, VTT_URL);
      // On this player, media time 100 is 2 s after kickoff (wherever it joined).
      const anchors = [{ mediaTime: 100, wallClockMs: KICKOFF_MS + 2000 }];
      expect(placeCues(track as unknown as TextTrack, cues, anchors)).toBe(2);
      expect(track.cues.map((c) => [c.startTime, c.endTime])).toEqual([
        [98, 102],
        [102, 106],
      ]);
      expect(placeCues(track as unknown as TextTrack, cues.slice(1), anchors)).toBe(1);
      expect(track.cues.map((c) => c.startTime)).toEqual([102]);
      // Before the stream's clock is known nothing is placed.
      expect(placeCues(track as unknown as TextTrack, cues, [])).toBe(0);
      expect(track.cues).toEqual([]);
    } finally {
      globals.VTTCue = before;
    }
  });
});
