import { api } from "@/api/client";
import { unwrapWhenNotBusy } from "./retryAfter";
import { currentDevice } from "@/session/device";
import { STRATEGY, type LoginResponse } from "./types";

/** POST /user/verify_email: the mailed token confirms the address, sets the sign-up's password and signs in. */
export function verifyEmail(token: string): Promise<LoginResponse> {
  const device = currentDevice();
  return unwrapWhenNotBusy(() =>
    api.POST("/user/verify_email", {
      body: { token, device_id: device.id, device_name: device.name, strategy: STRATEGY },
    }),
  );
}
