import { vi } from "vitest";
import type { components } from "@/api/schema.gen";
import { emptySession, sessionStore, type UserTokenData } from "@/session/store";
import type { UserProfile } from "@/entities/user";

/** One recorded call: path below /api, method, bearer header and parsed JSON body. */
export interface RecordedCall {
  path: string;
  method: string;
  authorization: string | null;
  body: unknown;
}

type Handler = (call: RecordedCall) => Response | Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

export function ok(content: unknown): Response {
  return json({ content, error: false, message: "" });
}

export function failure(status: number, messageErrorCode: string, message = messageErrorCode): Response {
  return json({ error: true, message, messageErrorCode }, status);
}

/**
 * Stubs globalThis.fetch with handlers by "METHOD /path" (path below /api, no query) and
 * records every call. Unknown routes answer 404 so a test sees an unexpected call fail.
 */
export function fakeServer(routes: Record<string, Handler>) {
  const calls: RecordedCall[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const request = input instanceof Request ? input : new Request(input);
    const url = new URL(request.url);
    const text = await request.text();
    const call: RecordedCall = {
      path: url.pathname.replace(/^\/api/, "") + url.search,
      method: request.method,
      authorization: request.headers.get("Authorization"),
      body: text ? JSON.parse(text) : undefined,
    };
    calls.push(call);
    const handler = routes[`${request.method} ${url.pathname.replace(/^\/api/, "")}`];
    return handler ? handler(call) : failure(404, "not_found");
  });
  vi.stubGlobal("fetch", fetch);
  return {
    calls,
    fetch,
    callsTo: (path: string) => calls.filter((call) => call.path.split("?")[0] === path),
  };
}

export const USER: UserProfile = {
  id: "9a1c0a8e2b3d4c5e6f7a8ba2",
  added: "2026-10-02T09:15:00Z",
  email: "ada@example.com",
  city: null,
  gender: null,
  dateOfBirth: null,
  fullName: "Ada Lovelace",
  phone: null,
  countryName: null,
  canCreateGlobalTag: false,
  favoriteClubId: null,
  postalCode: null,
  options: {},
  spoilerFree: null,
  liveAlertMail: false,
  identity: null,
  identityItem: null,
  role: "viewer",
};

export const API_PROFILE: components["schemas"]["Profile"] = {
  userId: USER.id,
  added: USER.added,
  email: "ada@example.com",
  displayName: "Ada Lovelace",
  city: "Harbor City",
  gender: "female",
  dateOfBirth: "1990-12-10",
  phone: "+44 20 7946 0000",
  countryName: "United Kingdom",
  postalCode: "HC1 2AB",
  globalTags: true,
  clubList: ["team|6a1c0a8e2b3d4c5e6f7a8b9d", "identity_item|7a1c0a8e2b3d4c5e6f7a8b9f"],
  options: {},
  identity: "7b1c0a8e2b3d4c5e6f7a8ba0",
  identityItem: "7a1c0a8e2b3d4c5e6f7a8b9f",
  role: "viewer",
};

/** A signed-in session whose access token was received `ageShare` of its lifetime ago. */
export function signIn({
  ageShare = 0,
  lifetimeSeconds = 900,
  token = "access-1",
  refreshToken = "refresh-1",
  provider,
}: {
  ageShare?: number;
  lifetimeSeconds?: number;
  token?: string;
  refreshToken?: string;
  provider?: UserTokenData["provider"];
} = {}): UserTokenData {
  const lifetime = lifetimeSeconds * 1000;
  const tokenUpdateTime = Date.now() - ageShare * lifetime;
  const userTokenData: UserTokenData = {
    token,
    tokenUpdateTime,
    tokenExpirationTime: tokenUpdateTime + lifetime,
    refreshToken,
    provider,
  };
  sessionStore.setState({ ...emptySession(), user: USER, token, userTokenData });
  return userTokenData;
}

export function signOutQuietly(): void {
  sessionStore.setState(emptySession());
}

export function refreshAnswer(token = "access-2", refreshToken = "refresh-2", expiresIn = 900): Response {
  return ok({ token, expires_in: expiresIn, refresh_token: refreshToken });
}
