import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "./schema.gen";
import { ApiError } from "./apiError";
import { firstAnswer } from "./firstAnswers";

/**
 * The one HTTP client: every call of the webapp goes through it (ARCHITECTURE: one
 * openapi-fetch client). The base URL is absolute and `fetch` is read at call time so tests
 * that stub `globalThis.fetch` see the calls (TOOLCHAIN-NOTES). The first page's first calls are
 * answered from the page itself when the server put their answers there (./firstAnswers.ts).
 */
export const api = createClient<paths>({
  baseUrl: `${globalThis.location?.origin ?? "http://localhost"}/api`,
  fetch: async (request: Request) => (await firstAnswer(request)) ?? globalThis.fetch(request),
  querySerializer: { array: { style: "form", explode: true } },
});

/**
 * The operations the contract declares without `security`: they carry no authorisation header
 * (spec §7), so they never wait for a token refresh nor retry after a 401. Start-up (/config)
 * and the sign-in page (/oauth2/providers) must not depend on a refresh that may fail, and a
 * sign-in call must not send the session it replaces. The session's middleware
 * (src/session/authorization.ts) leaves them alone; tests/api/client.test.ts keeps this list equal to
 * openapi.yaml's.
 */
export const PUBLIC_OPERATIONS: ReadonlySet<string> = new Set([
  "/config",
  "/health",
  "/oauth2/providers",
  "/event/grouped_sport_count",
  "/event/stats",
  "/event/epg/{id}",
  "/identity/list",
  "/identity/get_by_id/id/{id}",
  "/user/register",
  "/user/login",
  "/user/login/complete",
  "/oauth2/token",
  "/oauth2/ifa/callback",
  "/user/password/forgot",
  "/user/password/reset",
  "/user/verify_email",
  "/calendar/{secret}.ics",
  "/event/calendar/{id}.ics",
]);

/**
 * Spec §7 general behaviour of every call: a body with `error: true` fails the call even with a
 * 2xx status, and a call that got no answer fails with network_error. The session adds its
 * bearer token and the retry after a 401 with its own middleware (src/session/authorization.ts),
 * installed after this one: it runs first on an answer, so this one checks the final answer.
 */
export const envelopeMiddleware: Middleware = {
  async onResponse({ response }) {
    if (response.ok && (response.headers.get("Content-Type") ?? "").includes("json")) {
      const body: unknown = await response
        .clone()
        .json()
        .catch(() => undefined);
      if (body && typeof body === "object" && (body as { error?: unknown }).error === true)
        throw new ApiError(response.status, body);
    }
    return undefined;
  },

  onError({ error }) {
    if (error instanceof ApiError || (error instanceof DOMException && error.name === "AbortError"))
      return error as Error;
    return ApiError.network(error);
  },
};

api.use(envelopeMiddleware);

/**
 * The data of a call, or an ApiError built from its error envelope (ARCHITECTURE example 7).
 * `const events = await unwrap(api.POST("/event/list", { body }))`.
 */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (error) {
    if (error instanceof ApiError || (error instanceof DOMException && error.name === "AbortError")) throw error;
    throw ApiError.network(error);
  }
  const { data, error, response } = result;
  if (error !== undefined || !response.ok) throw new ApiError(response.status, error);
  return data as T;
}

export { ApiError, isApiError, DEFAULT_ERROR_CODE } from "./apiError";
export type { paths };
