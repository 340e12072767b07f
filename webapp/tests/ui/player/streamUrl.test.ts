// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  besideStream,
  parseSignedUrl,
  renewStreamCookie,
  sameStream,
  streamClaims,
  tokenClaims,
} from "@/ui/player/streamUrl";

/** Tokens shaped like the server's (`<expires>.<mac>`; the player never verifies them). */
const EARLY = "1795003600.AAAAAAAAAAAAAAAAAAAAAA";
const LATE = "1795007200.BBBBBBBBBBBBBBBBBBBB_-";
const LIVE = `/media/live/0123456789abcdef01234567/from-1795000000/index.m3u8?token=${EARLY}`;
const CLIP = `/media/vod/0123456789abcdef01234567/clip-60000-90000/index.m3u8?token=${LATE}`;

describe("signed stream addresses", () => {
  it("splits an address into its token, the stream's path and the directory the token opens", () => {
    expect(parseSignedUrl(CLIP)).toEqual({
      base: "/media/vod/0123456789abcdef01234567/clip-60000-90000/index.m3u8",
      token: LATE,
      path: "vod/0123456789abcdef01234567/clip-60000-90000/index.m3u8",
      directory: "/media/vod/0123456789abcdef01234567/clip-60000-90000/",
    });
    expect(parseSignedUrl(`http://127.0.0.1:8080/media/vod/a/index.m3u8?token=${EARLY}&x=1`)).toEqual({
      base: "http://127.0.0.1:8080/media/vod/a/index.m3u8?x=1",
      token: EARLY,
      path: "vod/a/index.m3u8",
      directory: "http://127.0.0.1:8080/media/vod/a/",
    });
  });

  it("knows no token in other addresses", () => {
    expect(parseSignedUrl("https://cdn.example.com/live/match.m3u8")).toBeNull();
    expect(parseSignedUrl("/media/vod/a/index.m3u8")).toBeNull();
    expect(parseSignedUrl(`/elsewhere/a.m3u8?token=${EARLY}`)).toBeNull();
  });

  it("tells the same stream under another token from another stream", () => {
    expect(sameStream(CLIP, CLIP.replace(LATE, EARLY))).toBe(true);
    expect(sameStream(CLIP, CLIP.replace("clip-60000-90000", "clip-60000-92000"))).toBe(false);
    expect(sameStream(LIVE, LIVE.replace("from-1795000000", "from-1795000060"))).toBe(false);
    expect(sameStream("https://cdn.example.com/a.m3u8", "https://cdn.example.com/a.m3u8")).toBe(true);
    expect(sameStream(null, LIVE)).toBe(false);
  });

  it("names a file beside the stream with its token", () => {
    const signed = parseSignedUrl(CLIP);
    expect(signed && besideStream(signed, "thumbnails.vtt")).toBe(
      `/media/vod/0123456789abcdef01234567/clip-60000-90000/thumbnails.vtt?token=${LATE}`,
    );
  });
});

describe("stream token claims", () => {
  it("reads the expiry, and a live stream's kickoff from its path", () => {
    expect(tokenClaims(EARLY)).toEqual({ exp: 1_795_003_600 });
    expect(streamClaims(LIVE)).toEqual({ exp: 1_795_003_600, start: 1_795_000_000 });
    expect(streamClaims(CLIP)).toEqual({ exp: 1_795_007_200, start: null });
  });

  it("reads the expiry of a CDN's flavour of token, from its encoded address too", () => {
    const akamai = `exp=1795003600~acl=/media/vod/a/*~hmac=${"0f".repeat(32)}`;
    expect(tokenClaims(akamai)).toEqual({ exp: 1_795_003_600 });
    expect(streamClaims(`/media/vod/a/index.m3u8?token=${encodeURIComponent(akamai)}`)).toEqual({
      exp: 1_795_003_600,
      start: null,
    });
    expect(tokenClaims(akamai.replace("~hmac=", "~mac="))).toBeNull();
  });

  it("gives nothing for what is not a readable token", () => {
    expect(tokenClaims("not-a-token")).toBeNull();
    expect(tokenClaims("1795003600.short")).toBeNull();
    expect(streamClaims("/media/vod/a/index.m3u8?token=x")).toBeNull();
    expect(streamClaims("https://cdn.example.com/a.m3u8")).toBeNull();
    expect(streamClaims(null)).toBeNull();
  });
});

describe("renewing a stream's cookie", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("asks for the address with its new token, without a body, whatever the answer", async () => {
    const fetcher = vi.fn().mockRejectedValue(new Error("offline"));
    vi.stubGlobal("fetch", fetcher);
    await expect(renewStreamCookie(CLIP)).resolves.toBeUndefined();
    expect(fetcher).toHaveBeenCalledWith(CLIP, { method: "HEAD", credentials: "same-origin", cache: "no-store" });
  });
});
