import { describe, expect, it } from "vitest";
import { parseSignedUrl, sameStream, streamClaims, tokenClaims, withToken } from "@/ui/player/streamUrl";

/** A token shaped like the server's (unsigned here: the player never verifies it). */
function token(claims: Record<string, unknown>): string {
  const part = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${part({ alg: "HS256" })}.${part(claims)}.c2lnbmF0dXJl`;
}

const LIVE = token({
  aud: "touchline-media",
  path: "live/football.m3u8",
  evt: "e1",
  exp: 1_795_003_600,
  start: 1_795_000_000,
});
const VIEWER = token({
  aud: "touchline-media",
  path: "vod/football/index.m3u8",
  evt: "e1",
  sub: "u1",
  exp: 1_795_007_200,
});

describe("signed stream addresses", () => {
  it("splits an address into its token and the stream's path", () => {
    expect(parseSignedUrl(`/media/s/${LIVE}/live/football.m3u8`)).toEqual({
      prefix: "/media/s/",
      token: LIVE,
      path: "live/football.m3u8",
    });
    expect(parseSignedUrl(`http://127.0.0.1:8080/media/s/${LIVE}/vod/football/720p/index3.ts`)).toEqual({
      prefix: "http://127.0.0.1:8080/media/s/",
      token: LIVE,
      path: "vod/football/720p/index3.ts",
    });
  });

  it("knows no token in other addresses", () => {
    expect(parseSignedUrl("https://cdn.example.com/live/match.m3u8")).toBeNull();
    expect(parseSignedUrl("/media/s/")).toBeNull();
  });

  it("puts a new token into any address under the stream, keeping the rest", () => {
    expect(withToken(`http://h/media/s/${LIVE}/vod/football/234p/live.m3u8`, VIEWER)).toBe(
      `http://h/media/s/${VIEWER}/vod/football/234p/live.m3u8`,
    );
    expect(withToken("https://cdn.example.com/a.ts", VIEWER)).toBe("https://cdn.example.com/a.ts");
    expect(withToken(`/media/s/${LIVE}/live/football.m3u8`, null)).toBe(`/media/s/${LIVE}/live/football.m3u8`);
  });

  it("tells the same stream under another token from another stream", () => {
    expect(sameStream(`/media/s/${LIVE}/live/football.m3u8`, `/media/s/${VIEWER}/live/football.m3u8`)).toBe(true);
    expect(sameStream(`/media/s/${LIVE}/live/football.m3u8`, `/media/s/${LIVE}/live/hockey.m3u8`)).toBe(false);
    expect(sameStream(`/media/s/${LIVE}/vod/football/index.m3u8`, `/media/s/${LIVE}/live/football.m3u8`)).toBe(false);
    expect(sameStream("https://cdn.example.com/a.m3u8", "https://cdn.example.com/a.m3u8")).toBe(true);
    expect(sameStream(null, `/media/s/${LIVE}/live/football.m3u8`)).toBe(false);
  });
});

describe("stream token claims", () => {
  it("reads the expiry, a live stream's start and whether the token names a viewer", () => {
    expect(tokenClaims(LIVE)).toEqual({ exp: 1_795_003_600, start: 1_795_000_000, sub: null });
    expect(streamClaims(`/media/s/${VIEWER}/vod/football/index.m3u8`)).toEqual({
      exp: 1_795_007_200,
      start: null,
      sub: "u1",
    });
  });

  it("gives nothing for what is not a readable token", () => {
    expect(tokenClaims("not-a-token")).toBeNull();
    expect(tokenClaims("a.%%%.c")).toBeNull();
    expect(streamClaims("https://cdn.example.com/a.m3u8")).toBeNull();
    expect(streamClaims(null)).toBeNull();
  });
});
