import { api, unwrap } from "@/api/client";
import type { components } from "@/api/schema.gen";

type DeviceList = components["schemas"]["DeviceListResponse"]["content"];

/**
 * POST /user/delete_device on the device-limit page: the sign-in's limit ticket is the bearer
 * token (there is no session yet). Answers the devices left.
 */
export async function deleteDeviceWithTicket(limitTicket: string, deviceId: string): Promise<DeviceList> {
  const answer = await unwrap(
    api.POST("/user/delete_device", {
      body: { deviceId },
      headers: { Authorization: `Bearer ${limitTicket}` },
    }),
  );
  return answer.content;
}
