// @vitest-environment node
import { describe, expect, it } from "vitest";
import { discontinuityRebaser, discontinuitySequence, rebaseDiscontinuities } from "@/ui/player/playlists";

const playlist = (sequence: number, mediaSequence = 897_767_701) =>
  [
    "#EXTM3U",
    "#EXT-X-VERSION:3",
    "#EXT-X-TARGETDURATION:2",
    `#EXT-X-MEDIA-SEQUENCE:${mediaSequence}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${sequence}`,
    "#EXT-X-PROGRAM-DATE-TIME:2026-11-24T15:50:02.000Z",
    "#EXTINF:2.000000,",
    "index1.ts",
    "#EXT-X-DISCONTINUITY",
    "#EXTINF:2.000000,",
    "index0.ts",
  ].join("\n");

describe("discontinuity sequence numbers", () => {
  it("reads a playlist's discontinuity sequence", () => {
    expect(discontinuitySequence(playlist(74_813_975))).toBe(74_813_975);
    expect(discontinuitySequence("#EXTM3U\n#EXTINF:2,\na.ts")).toBeNull();
  });

  it("subtracts a base from it and from nothing else", () => {
    const rebased = rebaseDiscontinuities(playlist(74_813_977), 74_813_975);
    expect(discontinuitySequence(rebased)).toBe(2);
    expect(rebased).toContain("#EXT-X-MEDIA-SEQUENCE:897767701");
    expect(rebased.replace("#EXT-X-DISCONTINUITY-SEQUENCE:2", "")).toBe(
      playlist(74_813_977).replace("#EXT-X-DISCONTINUITY-SEQUENCE:74813977", ""),
    );
  });

  it("rebases every playlist of a stream by the first one's sequence, keeping them consistent", () => {
    const rebase = discontinuityRebaser();
    expect(discontinuitySequence(rebase(playlist(74_813_975)))).toBe(0);
    // A reload after the loop wrapped twice, and another rendition of the same window.
    expect(discontinuitySequence(rebase(playlist(74_813_977)))).toBe(2);
    expect(discontinuitySequence(rebase(playlist(74_813_975)))).toBe(0);
  });

  it("leaves playlists without a sequence (VOD, masters) alone", () => {
    const rebase = discontinuityRebaser();
    const master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n360p/index.m3u8";
    expect(rebase(master)).toBe(master);
  });
});
