import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapTag, type TimelineTag } from "@/entities/tag";
import { tagsKey } from "./listTags";

/** Renames one of the viewer's tags. */
export async function renameTag({ id, title }: { id: string; title: string }): Promise<TimelineTag> {
  const answer = await unwrap(api.POST("/tag/update", { body: { _id: id, title } }));
  return mapTag(answer.content);
}

export function useRenameTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameTag,
    onSuccess: (tag) => queryClient.invalidateQueries({ queryKey: tagsKey(tag.targetId) }),
  });
}
