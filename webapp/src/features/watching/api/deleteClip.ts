import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { userClipsKey } from "./listUserClips";

/** Deletes one of the viewer's clips. */
export async function deleteClip(id: string): Promise<void> {
  await unwrap(api.POST("/clip/delete/{id}", { params: { path: { id } } }));
}

/** Deletes a clip cut from `eventId`, then reloads that event's clips. */
export function useDeleteClip(eventId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteClip,
    onSettled: () => queryClient.invalidateQueries({ queryKey: userClipsKey(eventId) }),
  });
}
