import { deviceTypeOf, type DeviceType } from "@/entities/device";

export interface CurrentDevice {
  /** The browser identification string: the web's device id and name (spec §3). */
  id: string;
  name: string;
  type: DeviceType;
  osName: string | null;
  osVersion: string | null;
}

// Order matters: iOS and Android strings also mention "Mac OS X" and "Linux".
const SYSTEMS: readonly (readonly [name: string, pattern: RegExp])[] = [
  ["Windows", /Windows NT ([\d.]+)/],
  ["iOS", /(?:iPhone|iPad|iPod).*? OS ([\d_]+)/],
  ["Android", /Android ([\d.]+)/],
  ["ChromeOS", /CrOS \S+ ([\d.]+)/],
  ["macOS", /Mac OS X ([\d_.]+)/],
  ["Linux", /Linux()/],
];

export function operatingSystemOf(identification: string): { osName: string | null; osVersion: string | null } {
  for (const [osName, pattern] of SYSTEMS) {
    const match = pattern.exec(identification);
    if (match) return { osName, osVersion: match[1] ? match[1].replace(/_/g, ".") : null };
  }
  return { osName: null, osVersion: null };
}

/** This browser as the account's devices know it. */
export function currentDevice(): CurrentDevice {
  const identification = globalThis.navigator?.userAgent || "unknown browser";
  return {
    id: identification,
    name: identification,
    type: deviceTypeOf(identification),
    ...operatingSystemOf(identification),
  };
}
