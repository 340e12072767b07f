// @vitest-environment node
import { describe, expect, it } from "vitest";
import { recoveredErrorOf, viewErrorOf } from "@/ui/player/qoe/errors";

describe("the player's errors as QoE beacons tell them", () => {
  it("a refused stream token (entitlement, region, device limit) is a business refusal that ends the view", () => {
    expect(viewErrorOf({ kind: "forbidden", detail: "manifestLoadError" })).toEqual({
      code: "forbidden:manifestLoadError",
      fatal: true,
      business: true,
    });
  });

  it("a stream not started yet is by design too, and the view goes on (the player asks again)", () => {
    expect(viewErrorOf({ kind: "not-started" })).toEqual({ code: "not-started", fatal: false, business: true });
  });

  it("hls.js's network and media errors, and a browser without HLS, are technical and end the view", () => {
    expect(viewErrorOf({ kind: "network", detail: "fragLoadError" })).toEqual({
      code: "network:fragLoadError",
      fatal: true,
      business: false,
    });
    expect(viewErrorOf({ kind: "media" })).toMatchObject({ fatal: true, business: false });
    expect(viewErrorOf({ kind: "unsupported" })).toMatchObject({ fatal: true, business: false });
  });

  it("playback that stopped moving is technical and may still resume", () => {
    expect(viewErrorOf({ kind: "stalled" })).toEqual({ code: "stalled", fatal: false, business: false });
  });

  it("a media error hls.js recovered from in place is not fatal", () => {
    expect(recoveredErrorOf("bufferAppendError")).toEqual({
      code: "media:bufferAppendError",
      fatal: false,
      business: false,
    });
  });

  it("keeps codes within the contract's characters and length", () => {
    const { code } = viewErrorOf({ kind: "network", detail: `weird detail/${"x".repeat(80)}` });
    expect(code).toMatch(/^[A-Za-z0-9_.:-]{1,60}$/);
    expect(code.startsWith("network:weird_detail_")).toBe(true);
  });
});
