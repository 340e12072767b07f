import { queryOptions, useQuery } from "@tanstack/react-query";
import type { components } from "@/api/schema.gen";
import { api, unwrap } from "@/api/client";
import { mapDevices, type Device } from "@/entities/device";
import { currentDevice } from "@/session/device";
import { sessionStore } from "@/session/store";

type ApiDeviceList = components["schemas"]["DeviceListResponse"]["content"];

export interface AccountDevices {
  devices: Device[];
  /** How many devices the account may have. */
  limit: number;
}

export const DEVICES_QUERY_KEY = ["account", "devices"] as const;

/** Maps an answer's devices (this browser marked current) and keeps the session's list with them. */
export function storeDevices(content: ApiDeviceList): AccountDevices {
  const devices = mapDevices(content.devices, currentDevice().id);
  sessionStore.setState({ devices });
  return { devices, limit: content.limit };
}

export async function fetchDevices(signal?: AbortSignal): Promise<AccountDevices> {
  const answer = await unwrap(api.GET("/user/get_devices", { signal }));
  return storeDevices(answer.content);
}

// The cache is emptied whenever the viewer changes (watchViewerChanges): no user id in the key.
export const devicesQueryOptions = queryOptions({
  queryKey: DEVICES_QUERY_KEY,
  queryFn: ({ signal }) => fetchDevices(signal),
});

/** GET /user/get_devices: the account's devices, most recently used first, and the limit. */
export function useDevices() {
  return useQuery(devicesQueryOptions);
}
