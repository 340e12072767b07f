import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "./schema.gen";
import { ApiError } from "./apiError";
import { sessionStore } from "@/session/store";

// The token code (refresh, cross-tab locks, session expiry) loads only once there is a session:
// anonymous visitors never download it.
const tokens = () => import("@/session/refresh");

/**
 * The one HTTP client: every call of the webapp goes through it (ARCHITECTURE: one
 * openapi-fetch client). The base URL is absolute and `fetch` is read at call time so tests
 * that stub `globalThis.fetch` see the calls (TOOLCHAIN-NOTES).
 */
export const api = createClient<paths>({
  baseUrl: `${globalThis.location?.origin ?? "http://localhost"}/api`,
  fetch: (request: Request) => globalThis.fetch(request),
  querySerializer: { array: { style: "form", explode: true } },
});

/**
 * The operations the contract declares without `security`: they carry no authorisation header
 * (spec §7), so they never wait for a token refresh nor retry after a 401. Start-up (/config)
 * and the sign-in page (/oauth2/providers) must not depend on a refresh that may fail, and a
 * sign-in call must not send the session it replaces. tests/api/client.test.ts keeps this list
 * equal to openapi.yaml's.
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
]);

/** Copies of authorised requests, kept until their answer, for the one retry after a 401. */
const retryable = new Map<string, { request: Request; token: string }>();

/**
 * Spec §7 general behaviour: the session's bearer token (refreshed first once 80 % of its
 * lifetime has passed), one retry after a 401 with a forced refresh, and a body with
 * `error: true` fails the call even with a 2xx status. A caller's own Authorization header
 * (delete_device with a limit ticket, logout) is sent as is and never retried.
 */
export const sessionMiddleware: Middleware = {
  async onRequest({ request, schemaPath, id }) {
    if (PUBLIC_OPERATIONS.has(schemaPath) || request.headers.has("Authorization")) return undefined;
    if (!sessionStore.getState().token) return undefined;
    const token = await (await tokens()).validAccessToken();
    if (!token) return undefined;
    request.headers.set("Authorization", `Bearer ${token}`);
    retryable.set(id, { request: request.clone(), token });
    return request;
  },

  async onResponse({ response, id, options }) {
    const retry = retryable.get(id);
    retryable.delete(id);
    let answer = response;
    if (response.status === 401 && retry) {
      const token = await (await tokens()).tokenAfterRejection(retry.token);
      retry.request.headers.set("Authorization", `Bearer ${token}`);
      answer = await options.fetch(retry.request);
    }
    if (answer.ok && (answer.headers.get("Content-Type") ?? "").includes("json")) {
      const body: unknown = await answer
        .clone()
        .json()
        .catch(() => undefined);
      if (body && typeof body === "object" && (body as { error?: unknown }).error === true)
        throw new ApiError(answer.status, body);
    }
    return answer === response ? undefined : answer;
  },

  onError({ error, id }) {
    retryable.delete(id);
    if (error instanceof ApiError || (error instanceof DOMException && error.name === "AbortError"))
      return error as Error;
    return ApiError.network(error);
  },
};

api.use(sessionMiddleware);

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
