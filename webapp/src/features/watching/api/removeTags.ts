import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { tagsKey } from "./listTags";

/** Deletes tags of the viewer's; the answer lists the ids actually removed. */
export async function removeTags(ids: string[]): Promise<string[]> {
  const answer = await unwrap(api.POST("/tag/remove_list", { body: { ids } }));
  return answer.content.ids;
}

/** Deletes tags on one event or clip, then reloads its tag lists. */
export function useRemoveTags(targetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeTags,
    onSettled: () => queryClient.invalidateQueries({ queryKey: tagsKey(targetId) }),
  });
}
