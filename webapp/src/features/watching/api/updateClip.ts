import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapUserClip, type UserClip } from "@/entities/clip";
import { userClipsKey } from "./listUserClips";

/** Renames one of the viewer's clips. */
export async function renameClip({ id, title }: { id: string; title: string }): Promise<UserClip> {
  const answer = await unwrap(api.POST("/clip/update/{id}", { params: { path: { id } }, body: { title } }));
  return mapUserClip(answer.content);
}

export function useRenameClip() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameClip,
    onSuccess: (clip) => queryClient.invalidateQueries({ queryKey: userClipsKey(clip.eventId) }),
  });
}
