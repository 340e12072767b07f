import { version as appVersion } from "../../../../package.json";
import { currentDevice } from "@/session/device";
import type { DeviceInfo } from "../api/types";

/** The `device` of a federated sign-on (spec §7): id and name are the browser identification string. */
export function deviceInfo(): DeviceInfo {
  const device = currentDevice();
  return {
    id: device.id,
    name: device.name,
    os_name: device.osName,
    os_version: device.osVersion,
    app_version: appVersion,
  };
}
