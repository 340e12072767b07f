import { api } from "@/api/client";
import { unwrapRateLimited } from "./retryAfter";
import { currentDevice } from "@/session/device";
import { STRATEGY, type LoginResponse } from "./types";

/** POST /user/login/complete: finishes a sign-in stopped at the device limit, with its ticket. */
export function completeLogin(limitTicket: string): Promise<LoginResponse> {
  const device = currentDevice();
  return unwrapRateLimited(
    api.POST("/user/login/complete", {
      body: { limit_ticket: limitTicket, device_id: device.id, device_name: device.name, strategy: STRATEGY },
    }),
  );
}
