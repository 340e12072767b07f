// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest";
import { currentDevice, operatingSystemOf } from "@/session/device";

const ANDROID_PHONE =
  "Mozilla/5.0 (Linux; Android 16; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36";
const IPAD =
  "Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";

afterEach(() => vi.unstubAllGlobals());

describe("currentDevice", () => {
  it("uses the browser identification string as the device id and name", () => {
    vi.stubGlobal("navigator", { userAgent: ANDROID_PHONE });
    expect(currentDevice()).toEqual({
      id: ANDROID_PHONE,
      name: ANDROID_PHONE,
      type: "mobile",
      osName: "Android",
      osVersion: "16",
    });
  });

  it("recognises tablets and desktops", () => {
    vi.stubGlobal("navigator", { userAgent: IPAD });
    expect(currentDevice()).toMatchObject({ type: "tablet", osName: "iOS", osVersion: "18.1" });
    vi.stubGlobal("navigator", { userAgent: LINUX });
    expect(currentDevice()).toMatchObject({ type: "desktop", osName: "Linux", osVersion: null });
  });

  it("names common systems", () => {
    expect(operatingSystemOf("Mozilla/5.0 (Windows NT 10.0; Win64; x64)")).toEqual({
      osName: "Windows",
      osVersion: "10.0",
    });
    expect(operatingSystemOf("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)")).toEqual({
      osName: "macOS",
      osVersion: "10.15.7",
    });
    expect(operatingSystemOf("curl/8.0")).toEqual({ osName: null, osVersion: null });
  });
});
