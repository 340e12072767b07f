import { describe, expect, it } from "vitest";
import { showThumbnails, thumbnailsUrl } from "@/ui/player/thumbnails";

/** A token shaped like the server's (unsigned here: the player never verifies it). */
function token(claims: Record<string, unknown>): string {
  const part = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${part({ alg: "HS256" })}.${part(claims)}.c2lnbmF0dXJl`;
}

const ASSET = "6c3f0c2e9b3d4e5f60718293";
const TOKEN = token({ aud: "touchline-media", path: `vod/${ASSET}/index.m3u8`, evt: "e1", exp: 1_795_007_200 });
const RENEWED = token({ aud: "touchline-media", path: `vod/${ASSET}/index.m3u8`, evt: "e1", exp: 1_795_010_800 });

describe("the seek previews of a stream", () => {
  it("are its asset's thumbnails.vtt, under the same token, for a whole asset's master or a clip of it", () => {
    expect(thumbnailsUrl(`/media/s/${TOKEN}/vod/${ASSET}/index.m3u8`)).toBe(
      `/media/s/${TOKEN}/vod/${ASSET}/thumbnails.vtt`,
    );
    expect(thumbnailsUrl(`https://watch.example/media/s/${TOKEN}/vod/${ASSET}/clip-60000-90000.m3u8?x=1`)).toBe(
      `https://watch.example/media/s/${TOKEN}/vod/${ASSET}/thumbnails.vtt`,
    );
  });

  it("are none for a live stream, an archived game, a sample named by its name or another address", () => {
    for (const url of [
      `/media/s/${TOKEN}/live/${ASSET}.m3u8`,
      `/media/s/${TOKEN}/vod/${ASSET}/game-5400.m3u8`,
      `/media/s/${TOKEN}/vod/football/index.m3u8`,
      `/media/s/${TOKEN}/vod/${ASSET}/360p/index.m3u8`,
      `/media/s/${TOKEN}/vod/${ASSET}/other.m3u8`,
      `/media/vod/${ASSET}/index.m3u8`,
      "https://cdn.example.com/vod/6c3f0c2e9b3d4e5f60718293/index.m3u8",
    ])
      expect(thumbnailsUrl(url), url).toBeNull();
  });
});

describe("the thumbnails track", () => {
  const tracks = (video: HTMLVideoElement) => [...video.querySelectorAll("track")];

  it("is added to the video once, as media-chrome reads it, and follows the token", () => {
    const video = document.createElement("video");
    const first = `/media/s/${TOKEN}/vod/${ASSET}/thumbnails.vtt`;
    const element = showThumbnails(video, first);
    expect(tracks(video)).toEqual([element]);
    expect(element?.getAttribute("kind")).toBe("metadata");
    expect(element?.getAttribute("label")).toBe("thumbnails");
    expect(element?.hasAttribute("default")).toBe(true);
    expect(element?.getAttribute("src")).toBe(first);

    expect(showThumbnails(video, first)).toBe(element);
    const renewed = `/media/s/${RENEWED}/vod/${ASSET}/thumbnails.vtt`;
    expect(showThumbnails(video, renewed)).toBe(element);
    expect(tracks(video)).toEqual([element]);
    expect(element?.getAttribute("src")).toBe(renewed);
  });

  it("is taken away for a stream without previews", () => {
    const video = document.createElement("video");
    showThumbnails(video, `/media/s/${TOKEN}/vod/${ASSET}/thumbnails.vtt`);
    expect(showThumbnails(video, null)).toBeNull();
    expect(tracks(video)).toEqual([]);
    expect(showThumbnails(video, null)).toBeNull();
  });
});
