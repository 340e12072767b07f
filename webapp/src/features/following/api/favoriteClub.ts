import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { FollowType } from "@/entities/followed";
import { storeProfile } from "@/session/auth";

/** The clubList entry of spec §3: '{type}|{id}'. */
export const clubRef = (type: FollowType, id: string) => `${type}|${id}` as const;

/** Makes the club the viewer's favourite (update_profile clubList, the first entry counts). */
export async function saveFavoriteClub({ type, id }: { type: FollowType; id: string }): Promise<void> {
  const answer = await unwrap(api.POST("/user/update_profile", { body: { data: { clubList: [clubRef(type, id)] } } }));
  storeProfile(answer.content);
}

export function useSaveFavoriteClub() {
  return useMutation({ mutationFn: saveFavoriteClub });
}
