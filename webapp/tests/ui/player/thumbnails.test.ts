import { describe, expect, it } from "vitest";
import { showThumbnails, thumbnailsUrl } from "@/ui/player/thumbnails";

const ASSET = "6c3f0c2e9b3d4e5f60718293";
/** Tokens shaped like the server's (`<expires>.<mac>`; the player never verifies them). */
const TOKEN = "1795007200.AAAAAAAAAAAAAAAAAAAAAA";
const RENEWED = "1795010800.BBBBBBBBBBBBBBBBBBBBBB";

describe("the seek previews of a stream", () => {
  it("are its thumbnails.vtt beside it, with its token, for a whole asset's master or a clip of it", () => {
    expect(thumbnailsUrl(`/media/vod/${ASSET}/index.m3u8?token=${TOKEN}`)).toBe(
      `/media/vod/${ASSET}/thumbnails.vtt?token=${TOKEN}`,
    );
    expect(
      thumbnailsUrl(`https://watch.example/media/vod/${ASSET}/clip-60000-90000/index.m3u8?x=1&token=${TOKEN}`),
    ).toBe(`https://watch.example/media/vod/${ASSET}/clip-60000-90000/thumbnails.vtt?token=${TOKEN}`);
  });

  it("are none for a live stream, an archived game, a sample named by its name or another address", () => {
    for (const url of [
      `/media/live/${ASSET}/from-1795000000/index.m3u8?token=${TOKEN}`,
      `/media/vod/${ASSET}/game-5400/index.m3u8?token=${TOKEN}`,
      `/media/vod/football/index.m3u8?token=${TOKEN}`,
      `/media/vod/${ASSET}/360p/index.m3u8?token=${TOKEN}`,
      `/media/vod/${ASSET}/other.m3u8?token=${TOKEN}`,
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
    const first = `/media/vod/${ASSET}/thumbnails.vtt?token=${TOKEN}`;
    const element = showThumbnails(video, first);
    expect(tracks(video)).toEqual([element]);
    expect(element?.getAttribute("kind")).toBe("metadata");
    expect(element?.getAttribute("label")).toBe("thumbnails");
    expect(element?.hasAttribute("default")).toBe(true);
    expect(element?.getAttribute("src")).toBe(first);

    expect(showThumbnails(video, first)).toBe(element);
    const renewed = `/media/vod/${ASSET}/thumbnails.vtt?token=${RENEWED}`;
    expect(showThumbnails(video, renewed)).toBe(element);
    expect(tracks(video)).toEqual([element]);
    expect(element?.getAttribute("src")).toBe(renewed);
  });

  it("is taken away for a stream without previews", () => {
    const video = document.createElement("video");
    showThumbnails(video, `/media/vod/${ASSET}/thumbnails.vtt?token=${TOKEN}`);
    expect(showThumbnails(video, null)).toBeNull();
    expect(tracks(video)).toEqual([]);
    expect(showThumbnails(video, null)).toBeNull();
  });
});
