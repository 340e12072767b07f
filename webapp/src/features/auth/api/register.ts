import { api } from "@/api/client";
import { unwrapWhenNotBusy } from "./retryAfter";
import { currentDevice } from "@/session/device";
import { STRATEGY } from "./types";

/**
 * POST /user/register: the same answer (202 `verification_sent`) whether or not the address has an
 * account; nothing signs in. The mailed link (/auth/verify/?token=…) confirms and signs in.
 */
export async function register(fields: { email: string; password: string; displayName: string }): Promise<void> {
  const device = currentDevice();
  await unwrapWhenNotBusy(() =>
    api.POST("/user/register", {
      body: { ...fields, device_id: device.id, device_name: device.name, strategy: STRATEGY },
    }),
  );
}
