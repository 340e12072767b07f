// @vitest-environment node
import { describe, expect, it } from "vitest";
import { browserOf, deviceLabel, systemOf } from "@/features/account/lib/deviceLabel";

const UA = {
  linuxChrome: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  ubuntuFirefox: "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  chromebook:
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
  windowsEdge:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86",
  windows7Chrome:
    "Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36",
  macSafari:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  iphoneSafari:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  androidSamsung:
    "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
  opera:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0",
};

describe("a device's name", () => {
  it("names the operating system, Linux and ChromeOS included", () => {
    expect(systemOf(UA.linuxChrome)).toBe("Linux");
    expect(systemOf(UA.ubuntuFirefox)).toBe("Linux");
    expect(systemOf(UA.chromebook)).toBe("ChromeOS");
    expect(systemOf(UA.windowsEdge)).toBe("Windows");
    expect(systemOf(UA.windows7Chrome)).toBe("Windows 7");
    expect(systemOf(UA.macSafari)).toBe("macOS");
    expect(systemOf(UA.iphoneSafari)).toBe("iOS 17.4");
    expect(systemOf(UA.androidSamsung)).toBe("Android 14");
    expect(systemOf("Anna's phone")).toBeNull();
  });

  it("names the browser and its major version, not the engines it claims to be", () => {
    expect(browserOf(UA.linuxChrome)).toBe("Chrome 131");
    expect(browserOf(UA.ubuntuFirefox)).toBe("Firefox 133");
    expect(browserOf(UA.windowsEdge)).toBe("Edge 131");
    expect(browserOf(UA.opera)).toBe("Opera 115");
    expect(browserOf(UA.androidSamsung)).toBe("Samsung Internet 25");
    expect(browserOf(UA.macSafari)).toBe("Safari 17");
    expect(browserOf(UA.iphoneSafari)).toBe("Safari 17");
    expect(browserOf("Anna's phone")).toBeNull();
  });

  it("reads the system from the identification string when the server stored none", () => {
    const stored = { deviceId: UA.linuxChrome, deviceName: UA.linuxChrome, osName: null, osVersion: null };
    expect(deviceLabel(stored)).toEqual({ system: "Linux", browser: "Chrome 131" });
    expect(deviceLabel({ ...stored, osName: "Android", osVersion: "14" }).system).toBe("Android 14");
    expect(deviceLabel({ deviceId: "x", deviceName: "Living-room TV", osName: null, osVersion: null })).toEqual({
      system: null,
      browser: null,
    });
  });
});
