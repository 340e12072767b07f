import { api } from "@/api/client";
import { unwrapWhenNotBusy } from "./retryAfter";
import { currentDevice } from "@/session/device";
import { STRATEGY, type LoginResponse } from "./types";

/** POST /user/register: creates the account and signs in on this device in the same call (spec §4). */
export function register(fields: { email: string; password: string; displayName: string }): Promise<LoginResponse> {
  const device = currentDevice();
  return unwrapWhenNotBusy(() =>
    api.POST("/user/register", {
      body: { ...fields, device_id: device.id, device_name: device.name, strategy: STRATEGY },
    }),
  );
}
