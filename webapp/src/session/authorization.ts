import type { Middleware } from "openapi-fetch";
import { api, PUBLIC_OPERATIONS } from "@/api/client";
import { sessionStore } from "./store";

// The token code (refresh, cross-tab locks, session expiry) loads only once there is a session:
// anonymous visitors never download it.
const tokens = () => import("./refresh");

/** Copies of authorised requests, kept until their answer, for the one retry after a 401. */
const retryable = new Map<string, { request: Request; token: string }>();

/**
 * Spec §7 general behaviour for the session: its bearer token (refreshed first once 80 % of its
 * lifetime has passed) on every operation but the public ones, and one retry after a 401 with a
 * forced refresh. A caller's own Authorization header (delete_device with a limit ticket, logout)
 * is sent as is and never retried. The client itself fails answers with `error: true`, after the
 * retry (src/api/client.ts).
 */
export const authorizationMiddleware: Middleware = {
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
    if (response.status !== 401 || !retry) return undefined;
    const token = await (await tokens()).tokenAfterRejection(retry.token);
    retry.request.headers.set("Authorization", `Bearer ${token}`);
    return options.fetch(retry.request);
  },

  onError({ id }) {
    retryable.delete(id);
    return undefined;
  },
};

let installed = false;

/**
 * Signs the client's calls with the session from now on. The app's start-up installs it before
 * its first call (main.tsx); installing it again changes nothing. The HTTP client sits below the
 * session and does not know it: the session plugs itself in.
 */
export function authorizeApiCalls(): void {
  if (installed) return;
  installed = true;
  api.use(authorizationMiddleware);
}
