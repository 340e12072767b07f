import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { logout } from "@/session/auth";

/**
 * POST /user/delete_account: the server revokes every session and erases the personal data.
 * The session here ends without revoking its (already revoked) token.
 */
export async function deleteAccount(): Promise<void> {
  await unwrap(api.POST("/user/delete_account"));
  await logout({ revokeToken: false });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
