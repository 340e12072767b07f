import { api } from "@/api/client";
import { unwrapRateLimited } from "./retryAfter";

/** POST /user/password/forgot: the same answer whether or not an account has the address. */
export async function forgotPassword(email: string): Promise<void> {
  await unwrapRateLimited(api.POST("/user/password/forgot", { body: { email } }));
}
