import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
}

/**
 * POST /user/change_password: this session stays signed in; answers how many other sessions the
 * account still has (403 wrong_password when the current password is wrong or there is none).
 */
export async function changePassword({ currentPassword, newPassword }: PasswordChange): Promise<number> {
  const answer = await unwrap(
    api.POST("/user/change_password", {
      body: { current_password: currentPassword, new_password: newPassword },
    }),
  );
  return answer.content.otherSessions;
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
