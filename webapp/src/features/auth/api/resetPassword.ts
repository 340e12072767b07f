import { api } from "@/api/client";
import { unwrapRateLimited } from "./retryAfter";

/** POST /user/password/reset: a single-use token from the e-mailed link and the new password. */
export async function resetPassword(token: string, password: string): Promise<void> {
  await unwrapRateLimited(api.POST("/user/password/reset", { body: { token, password } }));
}
