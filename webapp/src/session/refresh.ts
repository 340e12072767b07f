import { api } from "@/api/client";
import { ApiError } from "@/api/apiError";
import { version as appVersion } from "../../package.json";
import { currentDevice } from "./device";
import { expireSession } from "./expiry";
import { readPersistedSession, sessionStore, type UserTokenData } from "./store";

/** Refresh once this share of the token's lifetime has passed (spec §9). */
export const REFRESH_THRESHOLD = 0.8;
export const REFRESH_FAILED = "refresh_token_failed";
/** Tabs of one browser share the refresh token: one refresh at a time across all of them. */
const REFRESH_LOCK = "touchline-token-refresh";

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const REFRESH_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:refresh_token";
const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";

/** Token data for a token just received; `expiresIn` is in seconds. */
export function tokenDataFrom(
  token: string,
  expiresIn: number,
  refreshToken: string,
  provider?: UserTokenData["provider"],
  now = Date.now(),
): UserTokenData {
  return { token, tokenUpdateTime: now, tokenExpirationTime: now + expiresIn * 1000, refreshToken, provider };
}

export function tokenNeedsRefresh(data: UserTokenData, now = Date.now()): boolean {
  const lifetime = data.tokenExpirationTime - data.tokenUpdateTime;
  return now >= data.tokenUpdateTime + REFRESH_THRESHOLD * lifetime;
}

/** The access token to send now, refreshed first once 80 % of its lifetime has passed; null when signed out. */
export async function validAccessToken(): Promise<string | null> {
  const { token, userTokenData } = sessionStore.getState();
  if (!token) return null;
  if (userTokenData && !tokenNeedsRefresh(userTokenData)) return token;
  try {
    return await refreshAccessToken();
  } catch (error) {
    // The refresh was only early (80 % rule) and the session goes on: the token still works
    // until it expires, and a later call refreshes again.
    const ended = error instanceof ApiError && error.code === REFRESH_FAILED;
    if (!ended && userTokenData && Date.now() < userTokenData.tokenExpirationTime) return token;
    throw error;
  }
}

/**
 * A token to retry with after the server refused `rejected`: the current one if it changed
 * meanwhile (a concurrent call refreshed already), else a forced refresh.
 */
export async function tokenAfterRejection(rejected: string): Promise<string> {
  const { token, pendingAccessTokenRefresh } = sessionStore.getState();
  if (pendingAccessTokenRefresh) return pendingAccessTokenRefresh;
  if (token && token !== rejected) return token;
  return refreshAccessToken();
}

/**
 * Refreshes the access token. Concurrent callers share the one pending refresh. When the refresh
 * token is invalid (none stored, or the server refusing it) the session ends and this rejects
 * with refresh_token_failed; any other failure (offline, 400, 429, 5xx) rejects with its own
 * ApiError and keeps the session.
 */
export function refreshAccessToken(): Promise<string> {
  const pending = sessionStore.getState().pendingAccessTokenRefresh;
  if (pending) return pending;
  const refresh = refreshAcrossTabs().finally(() => {
    if (sessionStore.getState().pendingAccessTokenRefresh === refresh)
      sessionStore.setState({ pendingAccessTokenRefresh: null });
  });
  sessionStore.setState({ pendingAccessTokenRefresh: refresh });
  return refresh;
}

async function refreshAcrossTabs(): Promise<string> {
  const spent = sessionStore.getState().userTokenData?.refreshToken;
  const locks = globalThis.navigator?.locks;
  const refresh = () => adoptOtherTabsToken(spent) ?? exchangeRefreshToken();
  try {
    return await (locks?.request ? locks.request(REFRESH_LOCK, refresh) : refresh());
  } catch (error) {
    if (error instanceof ApiError && error.code === REFRESH_FAILED) await expireSession();
    throw error;
  }
}

/** While this tab waited for the lock, another one may have refreshed: take its token. */
function adoptOtherTabsToken(spent: string | undefined): string | null {
  const stored = readPersistedSession();
  const data = stored?.userTokenData;
  if (!stored?.token || !data || data.refreshToken === spent) return null;
  sessionStore.setState({ token: stored.token, userTokenData: data });
  return stored.token;
}

function refreshFailed(message = "Expired Session"): ApiError {
  return new ApiError(401, { error: true, message, messageErrorCode: REFRESH_FAILED });
}

async function exchangeRefreshToken(): Promise<string> {
  const { userTokenData } = sessionStore.getState();
  if (!userTokenData?.refreshToken) throw refreshFailed();
  const device = currentDevice();
  const { data, error, response } = await api.POST("/oauth2/token", {
    body: {
      grant_type: TOKEN_EXCHANGE,
      subject_token: userTokenData.refreshToken,
      subject_token_type: REFRESH_TOKEN_TYPE,
      subject_issuer: "touchline",
      requested_token_type: ACCESS_TOKEN_TYPE,
      device: {
        id: device.id,
        name: device.name,
        os_name: device.osName,
        os_version: device.osVersion,
        app_version: appVersion,
      },
      strategy: "refresh",
    },
  });
  if (error !== undefined || !data) {
    const failure = new ApiError(response.status, error);
    // Only 401 (refresh_token_failed in the contract) says the refresh token is spent, expired
    // or revoked; a rate limit or a refused body says nothing about the session.
    if (response.status === 401 || failure.code === REFRESH_FAILED) throw refreshFailed(failure.serverMessage);
    throw failure;
  }
  const content = data.content;
  if (!("token" in content)) throw refreshFailed();
  const next = tokenDataFrom(content.token, content.expires_in, content.refresh_token, userTokenData.provider);
  // A logout while the refresh was in flight wins: do not bring the session back.
  if (sessionStore.getState().userTokenData?.refreshToken !== userTokenData.refreshToken) throw refreshFailed();
  sessionStore.setState({ token: next.token, userTokenData: next });
  return next.token;
}
