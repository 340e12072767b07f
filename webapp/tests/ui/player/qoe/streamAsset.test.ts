// @vitest-environment node
import { describe, expect, it } from "vitest";
import { assetOf } from "@/ui/player/qoe/streamAsset";

describe("the media asset a stream address names", () => {
  it("reads it from the addresses viewers get, with or without their token, from here or an edge", () => {
    expect(assetOf("/media/live/1b0a75bea1a3d87fb8d97174/from-1796040000/index.m3u8?token=1.abc")).toBe(
      "1b0a75bea1a3d87fb8d97174",
    );
    expect(assetOf("/media/vod/a1b2/clip-0-4000/index.m3u8")).toBe("a1b2");
    expect(assetOf("https://edge.example/media/vod/a1b2/720p/index3.ts")).toBe("a1b2");
  });

  it("reads it from the address an event stores", () => {
    expect(assetOf("/media/live/football.m3u8")).toBe("football");
  });

  it("is null for an address that names none", () => {
    expect(assetOf("https://streams.example/hls/master.m3u8")).toBeNull();
    expect(assetOf("/media/posters/ashford.svg")).toBeNull();
    expect(assetOf("/media/live/")).toBeNull();
  });
});
