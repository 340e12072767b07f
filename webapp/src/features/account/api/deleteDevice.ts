import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { DEVICES_QUERY_KEY, storeDevices, type AccountDevices } from "./getDevices";

/**
 * POST /user/delete_device with the viewer's own token: the removed device's sessions end and it
 * hears remove-user-device on the socket. Answers the devices left.
 */
export async function deleteDevice(deviceId: string): Promise<AccountDevices> {
  const answer = await unwrap(api.POST("/user/delete_device", { body: { deviceId } }));
  return storeDevices(answer.content);
}

export function useDeleteDevice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteDevice,
    onSuccess: (devices) => client.setQueryData(DEVICES_QUERY_KEY, devices),
  });
}
