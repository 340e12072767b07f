import type { components } from "@/api/schema.gen";

type ApiDevice = components["schemas"]["Device"];
export type DeviceType = "mobile" | "tablet" | "desktop";

/** One of the account's devices as the UI uses it (spec §3 "Device"). */
export interface Device {
  id: string;
  addedAt: string;
  updatedAt: string;
  deviceId: string;
  deviceName: string;
  osName: string | null;
  osVersion: string | null;
  deviceType: DeviceType;
  /** This browser: its identification string is the device id. */
  isCurrent: boolean;
}

/** Tablets first: iPad and Android without "Mobile" also match the phone pattern's words. */
const TABLET = /ipad|tablet|playbook|silk|kindle|(android(?!.*mobile))/i;
const MOBILE = /mobi|iphone|ipod|android|blackberry|opera mini|iemobile|windows phone/i;

export function deviceTypeOf(identification: string): DeviceType {
  if (TABLET.test(identification)) return "tablet";
  if (MOBILE.test(identification)) return "mobile";
  return "desktop";
}

export function mapDevice(device: ApiDevice, currentDeviceId: string): Device {
  return {
    id: device._id,
    addedAt: device.added,
    updatedAt: device.updated,
    deviceId: device.deviceId,
    deviceName: device.deviceName,
    osName: device.osName,
    osVersion: device.osVersion,
    deviceType: deviceTypeOf(device.deviceId),
    isCurrent: device.deviceId === currentDeviceId,
  };
}

export function mapDevices(devices: readonly ApiDevice[], currentDeviceId: string): Device[] {
  return devices.map((device) => mapDevice(device, currentDeviceId));
}
