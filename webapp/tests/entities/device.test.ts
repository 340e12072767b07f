// @vitest-environment node
import { describe, expect, it } from "vitest";
import { deviceTypeOf, mapDevice, mapDevices } from "@/entities/device";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";
const API_DEVICE = {
  _id: "9b1c0a8e2b3d4c5e6f7a8ba3",
  added: "2026-10-02T09:15:00Z",
  updated: "2026-11-21T17:58:00Z",
  deviceId: BROWSER,
  deviceName: BROWSER,
  osName: "Linux",
  osVersion: null,
};
const PHONE = {
  ...API_DEVICE,
  _id: "9c1c0a8e2b3d4c5e6f7a8ba5",
  deviceId: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Mobile/15E148",
  deviceName: "Ada's phone",
};

describe("the device mapper", () => {
  it("renames _id, added and updated", () => {
    expect(mapDevice(API_DEVICE, "another browser")).toEqual({
      id: API_DEVICE._id,
      addedAt: API_DEVICE.added,
      updatedAt: API_DEVICE.updated,
      deviceId: BROWSER,
      deviceName: BROWSER,
      osName: "Linux",
      osVersion: null,
      deviceType: "desktop",
      isCurrent: false,
    });
  });

  it("marks the device whose id is this browser's identification string as current", () => {
    expect(mapDevices([API_DEVICE, PHONE], BROWSER).map((device) => device.isCurrent)).toEqual([true, false]);
  });

  it("derives the device type from the identification string", () => {
    expect(mapDevice(PHONE, BROWSER).deviceType).toBe("mobile");
    expect(deviceTypeOf("Mozilla/5.0 (Linux; Android 16; Pixel 9) Chrome/156.0 Mobile Safari/537.36")).toBe("mobile");
    expect(deviceTypeOf("Mozilla/5.0 (Linux; Android 15; SM-X710) Chrome/156.0 Safari/537.36")).toBe("tablet");
    expect(deviceTypeOf("Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) Mobile/15E148")).toBe("tablet");
    expect(deviceTypeOf("Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/156.0")).toBe("desktop");
  });
});
