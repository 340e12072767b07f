import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { toProfileUpdate, type UserProfileChanges } from "@/entities/user";
import { storeProfile } from "@/session/auth";

/** POST /user/update_profile with the changed fields; answers the stored profile. */
export async function updateProfile(changes: UserProfileChanges) {
  const answer = await unwrap(api.POST("/user/update_profile", { body: { data: toProfileUpdate(changes) } }));
  return answer.content;
}

/** The session's user is the profile: the answer replaces it there (the summary follows). */
export function useUpdateProfile() {
  return useMutation({ mutationFn: updateProfile, onSuccess: storeProfile });
}
