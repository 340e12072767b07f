import { ApiError } from "@/api/apiError";
import { analytics } from "@/lib/analytics";

/** Spec §8: a failed sign-in (never a sign-up) is tracked with its code and message. */
export function trackLoginFailure(error: unknown, provider = "credentials"): void {
  const code = error instanceof ApiError ? error.code : ((error as { code?: unknown } | null)?.code ?? undefined);
  const message = error instanceof ApiError ? (error.serverMessage ?? error.message) : (error as Error | null)?.message;
  analytics.track("login_failed", {
    provider,
    code: typeof code === "string" ? code : "default_error_message",
    message: typeof message === "string" ? message : null,
  });
}
