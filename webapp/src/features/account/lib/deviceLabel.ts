import type { Device } from "@/entities/device";
import { operatingSystemOf } from "@/session/device";

/**
 * A person's name for a device the account signed in from: "Chrome 131" and "Linux" rather than
 * the browser's identification string. The web's device id and name are that string (spec §3),
 * and a sign-in with a password sends no system, so both are read from it here; a name that is
 * no browser identification (an app's "Anna's iPhone") is shown as it is.
 */

// Order matters: Edge, Opera and Samsung Internet also say "Chrome/"; Chrome also says "Safari/".
const BROWSERS: readonly (readonly [name: string, pattern: RegExp])[] = [
  ["Edge", /\b(?:Edg|EdgA|EdgiOS)\/(\d+)/],
  ["Opera", /\b(?:OPR|OPT)\/(\d+)/],
  ["Samsung Internet", /\bSamsungBrowser\/(\d+)/],
  ["Firefox", /\b(?:Firefox|FxiOS)\/(\d+)/],
  ["Chrome", /\b(?:Chrome|CriOS|Chromium)\/(\d+)/],
  ["Safari", /\bVersion\/(\d+)[\d.]*.*\bSafari\//],
];

export function browserOf(identification: string): string | null {
  for (const [name, pattern] of BROWSERS) {
    const match = pattern.exec(identification);
    if (match) return `${name} ${match[1]}`;
  }
  return null;
}

// Windows NT versions that name one release (10.0 is both Windows 10 and 11: just "Windows").
const WINDOWS: Record<string, string> = { "6.1": "7", "6.2": "8", "6.3": "8.1" };

/** The operating system, with a version only where the identification string tells it truly. */
export function systemOf(identification: string): string | null {
  const { osName, osVersion } = operatingSystemOf(identification);
  if (!osName) return null;
  switch (osName) {
    case "Windows":
      return osVersion && WINDOWS[osVersion] ? `Windows ${WINDOWS[osVersion]}` : "Windows";
    case "iOS":
    case "Android":
      return osVersion ? `${osName} ${osVersion}` : osName;
    default:
      // macOS's string is frozen at 10.15.7 and ChromeOS's number is Chrome's: the name alone.
      return osName;
  }
}

export interface DeviceLabel {
  /** The operating system, or null when neither the server nor the name tells it. */
  system: string | null;
  /** The browser ("Firefox 133"), or null when the name is no browser identification. */
  browser: string | null;
}

export function deviceLabel(device: Pick<Device, "deviceName" | "deviceId" | "osName" | "osVersion">): DeviceLabel {
  const identification = device.deviceName || device.deviceId;
  const stored = device.osName ? [device.osName, device.osVersion].filter(Boolean).join(" ") : null;
  return { system: stored ?? systemOf(identification), browser: browserOf(identification) };
}
