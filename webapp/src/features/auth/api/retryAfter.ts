import { ApiError, unwrap } from "@/api/client";

/** Seconds to wait, from the Retry-After header of a 429 or 503 answer, by error. */
const waits = new WeakMap<ApiError, number>();

/**
 * `unwrap` that also keeps the Retry-After of a 429 (the sign-in calls are rate limited, and the
 * forms say how long to wait) or of a 503 (the server was too busy: `unwrapWhenNotBusy`).
 */
export async function unwrapRateLimited<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  try {
    return await unwrap(call);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 429 || error.status === 503)) {
      const answer = await call.catch(() => null);
      const seconds = Number(answer?.response.headers.get("Retry-After"));
      if (Number.isFinite(seconds) && seconds > 0) waits.set(error, Math.ceil(seconds));
    }
    throw error;
  }
}

/** The wait a rate limit (429) asked for. */
export function retryAfterSeconds(error: unknown): number | undefined {
  return error instanceof ApiError && error.status === 429 ? waits.get(error) : undefined;
}

/** Attempts in all at a call the server shed, and the longest wait it may ask for between two. */
export const BUSY_ATTEMPTS = 4;
const BUSY_MAX_WAIT_S = 30;

/** The wait the server asked for when it shed a call (503 with Retry-After), at most BUSY_MAX_WAIT_S. */
function busyWait(error: unknown): number | undefined {
  const seconds = error instanceof ApiError && error.status === 503 ? waits.get(error) : undefined;
  return seconds === undefined ? undefined : Math.min(seconds, BUSY_MAX_WAIT_S);
}

/**
 * `unwrapRateLimited` of `ask()`, asked again while the server answers 503 with Retry-After. The
 * server verifies passwords a few at a time and, in a kickoff's sign-in burst, sheds the ones
 * that could not start in time (server/auth/passwords.py): nothing was done, so asking again is
 * safe, and waiting as told keeps the viewer's place fair. After BUSY_ATTEMPTS the error stands.
 */
export async function unwrapWhenNotBusy<T>(
  ask: () => Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await unwrapRateLimited(ask());
    } catch (error) {
      const seconds = attempt < BUSY_ATTEMPTS ? busyWait(error) : undefined;
      if (seconds === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  }
}
