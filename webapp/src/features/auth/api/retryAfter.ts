import { ApiError, unwrap } from "@/api/client";

/** Seconds to wait, from the Retry-After header of a 429 answer, by error. */
const waits = new WeakMap<ApiError, number>();

/**
 * `unwrap` that also keeps a 429's Retry-After (the sign-in calls are rate limited, and the
 * forms say how long to wait).
 */
export async function unwrapRateLimited<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  try {
    return await unwrap(call);
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) {
      const answer = await call.catch(() => null);
      const seconds = Number(answer?.response.headers.get("Retry-After"));
      if (Number.isFinite(seconds) && seconds > 0) waits.set(error, Math.ceil(seconds));
    }
    throw error;
  }
}

export function retryAfterSeconds(error: unknown): number | undefined {
  return error instanceof ApiError ? waits.get(error) : undefined;
}
