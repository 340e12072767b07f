// @vitest-environment node
import { describe, expect, it } from "vitest";
import { cmcdOf, encodeCmcd, withCmcd } from "@/ui/player/qoe/cmcd";
import type { MediaRequest } from "@/ui/player/qoe/mediaRequests";

const SEGMENT: MediaRequest = {
  object: "av",
  durationMs: 2002,
  bitrateKbps: 1196.4,
  bufferMs: 3449,
  throughputKbps: 8351.7,
  urgent: false,
  live: true,
  rate: 1,
};
const SESSION = { sessionId: "3f9c1e0a7b2d4c6e8a1b2c3d", contentId: "5f1c0a8e2b3d4c5e6f7a8b9c" };

describe("CMCD (CTA-5004) in query mode", () => {
  it("encodes a segment request: keys in alphabetical order, strings quoted, tokens bare, integers rounded", () => {
    expect(encodeCmcd(cmcdOf(SEGMENT, SESSION))).toBe(
      'bl=3400,br=1196,cid="5f1c0a8e2b3d4c5e6f7a8b9c",d=2002,mtp=8400,ot=av,sf=h,sid="3f9c1e0a7b2d4c6e8a1b2c3d",st=l',
    );
  });

  it("rounds the buffer to 100 ms and the throughput to 100 kbps, as CTA-5004 asks", () => {
    const payload = encodeCmcd(cmcdOf({ ...SEGMENT, bufferMs: 50, throughputKbps: 149.9 }, SESSION));
    expect(payload).toContain("bl=100,");
    expect(payload).toContain("mtp=100,");
  });

  it("sends a true boolean as the key alone and leaves a false one out", () => {
    expect(encodeCmcd(cmcdOf({ ...SEGMENT, urgent: true }, SESSION))).toMatch(/,st=l,su$/);
    expect(encodeCmcd(cmcdOf({ ...SEGMENT, urgent: false }, SESSION))).not.toContain("su");
  });

  it("encodes a playlist request with what is known of it, and the playback rate when it is not 1", () => {
    const playlist: MediaRequest = {
      object: "m",
      durationMs: null,
      bitrateKbps: null,
      bufferMs: null,
      throughputKbps: null,
      urgent: true,
      live: false,
      rate: 1.1,
    };
    expect(encodeCmcd(cmcdOf(playlist, SESSION))).toBe(
      'cid="5f1c0a8e2b3d4c5e6f7a8b9c",ot=m,pr=1.1,sf=h,sid="3f9c1e0a7b2d4c6e8a1b2c3d",st=v,su',
    );
  });

  it("escapes quotes and backslashes in strings", () => {
    expect(encodeCmcd({ cid: 'a"b\\c' })).toBe('cid="a\\"b\\\\c"');
  });

  it("sorts whatever order the keys come in, and leaves out what is unknown", () => {
    expect(encodeCmcd({ su: true, sid: "s", bl: 0, br: undefined, d: Number.NaN, ot: "v" })).toBe(
      'bl=0,ot=v,sid="s",su',
    );
  });

  it("adds the payload as the last query parameter, keeping the stream token and any other query as they were", () => {
    const payload = 'br=1196,sid="v1"';
    const encoded = "CMCD=br%3D1196%2Csid%3D%22v1%22";
    expect(
      withCmcd("https://cdn.example/media/live/a1/from-1/index.m3u8?token=1767225600.AbC-_09xYz12345678901q", payload),
    ).toBe(`https://cdn.example/media/live/a1/from-1/index.m3u8?token=1767225600.AbC-_09xYz12345678901q&${encoded}`);
    expect(withCmcd("/media/vod/a1/360p/index3.ts", payload)).toBe(`/media/vod/a1/360p/index3.ts?${encoded}`);
    // An edge token's own characters (~, =, *) are not re-encoded.
    expect(withCmcd("/media/x.m3u8?exp=17~acl=/media/*~hmac=ab&v=2#t=3", payload)).toBe(
      `/media/x.m3u8?exp=17~acl=/media/*~hmac=ab&v=2&${encoded}#t=3`,
    );
    // The URL's own parser reads it back.
    const url = new URL(withCmcd("https://cdn.example/s.ts?token=abc", payload));
    expect(url.searchParams.get("token")).toBe("abc");
    expect(url.searchParams.get("CMCD")).toBe(payload);
  });

  it("replaces a CMCD parameter the address already had (a request sent again)", () => {
    const once = withCmcd("/s.ts?token=abc", "su");
    expect(withCmcd(once, "bl=100")).toBe("/s.ts?token=abc&CMCD=bl%3D100");
  });
});
