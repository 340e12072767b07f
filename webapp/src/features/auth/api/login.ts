import { api } from "@/api/client";
import { unwrapWhenNotBusy } from "./retryAfter";
import { currentDevice } from "@/session/device";
import { STRATEGY, type LoginResponse } from "./types";

/** POST /user/login (spec §7): the e-mail address is the username; no authorisation header. */
export function login(credentials: { username: string; password: string }): Promise<LoginResponse> {
  const device = currentDevice();
  return unwrapWhenNotBusy(() =>
    api.POST("/user/login", {
      body: { ...credentials, device_id: device.id, device_name: device.name, strategy: STRATEGY },
    }),
  );
}
