import { describe, expect, it } from "vitest";
import { describeRequest, type LoaderState } from "@/ui/player/qoe/mediaRequests";

const HLS: LoaderState = {
  levels: [
    { bitrate: 400_000, audioCodec: "mp4a.40.2", videoCodec: "avc1.42c01e" },
    { bitrate: 1_200_000, audioCodec: "mp4a.40.2", videoCodec: "avc1.42c01e" },
    { bitrate: 900_000, videoCodec: "avc1.42c01e" },
  ],
  bandwidthEstimate: 8_351_700,
  mainForwardBufferInfo: { len: 3.449 },
};

/** A <video> in a given state (jsdom's own cannot be given a readyState). */
function media(state: { readyState: number; seeking?: boolean; playbackRate?: number }): HTMLMediaElement {
  const video = document.createElement("video");
  Object.defineProperties(video, {
    readyState: { value: state.readyState },
    seeking: { value: state.seeking ?? false },
  });
  video.playbackRate = state.playbackRate ?? 1;
  return video;
}

const segment = (level: number, extra: object = {}) => ({
  url: "https://x/media/live/a1/from-1/360p/index7.ts",
  frag: { sn: 7, type: "main", level, duration: 2.002, ...extra },
  part: null,
});

describe("what a media request is, for CMCD", () => {
  it("a segment: its rendition's bitrate, its duration, the buffer ahead and hls.js's throughput", () => {
    const playing = media({ readyState: HTMLMediaElement.HAVE_ENOUGH_DATA });
    expect(describeRequest(segment(1), HLS, playing, true)).toEqual({
      object: "av",
      durationMs: expect.closeTo(2002, 6), // the encoding rounds it
      bitrateKbps: 1200,
      bufferMs: 3449,
      throughputKbps: 8351.7,
      urgent: false,
      live: true,
      rate: 1,
    });
  });

  it("what a segment holds, from its rendition's codecs until hls.js has read it", () => {
    const playing = media({ readyState: HTMLMediaElement.HAVE_ENOUGH_DATA });
    expect(describeRequest(segment(2), HLS, playing, false).object).toBe("v");
    expect(describeRequest(segment(1, { sn: "initSegment" }), HLS, playing, false)).toMatchObject({
      object: "i",
      bitrateKbps: null,
      bufferMs: null,
    });
    expect(describeRequest(segment(1, { type: "audio" }), HLS, playing, false).object).toBe("a");
  });

  it("a playlist: the manifest type, no bitrate, duration or buffer", () => {
    const playlist = { url: "https://x/media/live/a1/from-1/index.m3u8?token=t" };
    expect(describeRequest(playlist, HLS, null, true)).toEqual({
      object: "m",
      durationMs: null,
      bitrateKbps: null,
      bufferMs: null,
      throughputKbps: 8351.7,
      urgent: true,
      live: true,
      rate: 1,
    });
  });

  it("is urgent while nothing plays: before the first frame, during a seek, in a stall", () => {
    const urgent = (state: { readyState: number; seeking?: boolean }) =>
      describeRequest(segment(0), HLS, media(state), true).urgent;
    expect(urgent({ readyState: HTMLMediaElement.HAVE_NOTHING })).toBe(true);
    expect(urgent({ readyState: HTMLMediaElement.HAVE_ENOUGH_DATA, seeking: true })).toBe(true);
    expect(urgent({ readyState: HTMLMediaElement.HAVE_CURRENT_DATA })).toBe(true);
    expect(urgent({ readyState: HTMLMediaElement.HAVE_FUTURE_DATA })).toBe(false);
  });

  it("says the playback rate, and nothing of a throughput hls.js has not measured", () => {
    const catchingUp = media({ readyState: HTMLMediaElement.HAVE_ENOUGH_DATA, playbackRate: 1.1 });
    const request = describeRequest(segment(0), { ...HLS, bandwidthEstimate: Number.NaN }, catchingUp, true);
    expect(request.rate).toBe(1.1);
    expect(request.throughputKbps).toBeNull();
  });
});
