import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api, unwrap } from "@/api/client";
import { ApiError } from "@/api/apiError";
import { navigateTo } from "@/lib/navigation";
import { appConfigQuery } from "@/lib/config";
import { queryClient } from "@/lib/queryClient";
import { refreshAccessToken, tokenNeedsRefresh, REFRESH_THRESHOLD } from "@/session/refresh";
import { sessionStore, STORAGE_KEY } from "@/session/store";
import { failure, fakeServer, ok, refreshAnswer, signIn, signOutQuietly } from "./fakeServer";

vi.mock("@/lib/navigation", () => ({ navigateTo: vi.fn(), registerNavigator: vi.fn() }));

const PROFILE = "/user/get_profile";
const TOKEN = "/oauth2/token";

function profileCall() {
  return unwrap(api.GET("/user/get_profile"));
}

beforeEach(() => {
  vi.useRealTimers();
  signOutQuietly();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(navigateTo).mockReset();
  queryClient.clear();
});

describe("the 80 % refresh rule", () => {
  it("computes the threshold from the update and expiration times", () => {
    const data = {
      token: "t",
      refreshToken: "r",
      tokenUpdateTime: 1_000_000,
      tokenExpirationTime: 1_000_000 + 900_000,
    };
    expect(REFRESH_THRESHOLD).toBe(0.8);
    expect(tokenNeedsRefresh(data, 1_000_000 + 719_999)).toBe(false);
    expect(tokenNeedsRefresh(data, 1_000_000 + 720_000)).toBe(true);
  });

  it("sends the current token without refreshing just before 80 % of its lifetime", async () => {
    signIn({ ageShare: 0.79 });
    const server = fakeServer({ [`GET ${PROFILE}`]: () => ok({}) });
    await profileCall();
    expect(server.callsTo(TOKEN)).toHaveLength(0);
    expect(server.callsTo(PROFILE)[0].authorization).toBe("Bearer access-1");
  });

  it("refreshes first just after 80 % of its lifetime and sends the new token", async () => {
    signIn({ ageShare: 0.81 });
    const server = fakeServer({ [`POST ${TOKEN}`]: () => refreshAnswer(), [`GET ${PROFILE}`]: () => ok({}) });
    await profileCall();
    expect(server.calls.map((call) => call.path)).toEqual([TOKEN, PROFILE]);
    expect(server.callsTo(PROFILE)[0].authorization).toBe("Bearer access-2");
    const { token, userTokenData } = sessionStore.getState();
    expect(token).toBe("access-2");
    expect(userTokenData).toMatchObject({ token: "access-2", refreshToken: "refresh-2" });
    expect(userTokenData!.tokenExpirationTime - userTokenData!.tokenUpdateTime).toBe(900_000);
  });

  it("exchanges the refresh token as the spec's token-exchange body, without an authorisation header", async () => {
    signIn({ ageShare: 0.9 });
    const server = fakeServer({ [`POST ${TOKEN}`]: () => refreshAnswer() });
    await refreshAccessToken();
    const [call] = server.callsTo(TOKEN);
    expect(call.authorization).toBeNull();
    expect(call.body).toMatchObject({
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      subject_token: "refresh-1",
      subject_token_type: "urn:ietf:params:oauth:token-type:refresh_token",
      requested_token_type: "urn:ietf:params:oauth:token-type:access_token",
      strategy: "refresh",
      device: { id: navigator.userAgent, name: navigator.userAgent },
    });
  });

  it("refreshes a fresh token when forced", async () => {
    signIn({ ageShare: 0 });
    const server = fakeServer({ [`POST ${TOKEN}`]: () => refreshAnswer() });
    await expect(refreshAccessToken()).resolves.toBe("access-2");
    expect(server.callsTo(TOKEN)).toHaveLength(1);
  });

  it("persists the refreshed token under ott-data", async () => {
    signIn({ ageShare: 0.9 });
    fakeServer({ [`POST ${TOKEN}`]: () => refreshAnswer() });
    await refreshAccessToken();
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY)!)).toMatchObject({
      token: "access-2",
      userTokenData: { refreshToken: "refresh-2" },
    });
  });
});

describe("one shared refresh", () => {
  it("makes a single refresh call for many concurrent calls, which all send the new token", async () => {
    signIn({ ageShare: 0.95 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = fakeServer({
      [`POST ${TOKEN}`]: async () => {
        await gate;
        return refreshAnswer();
      },
      [`GET ${PROFILE}`]: () => ok({}),
    });
    const calls = Array.from({ length: 5 }, profileCall);
    release();
    await Promise.all(calls);
    expect(server.callsTo(TOKEN)).toHaveLength(1);
    expect(server.callsTo(PROFILE).map((call) => call.authorization)).toEqual(Array(5).fill("Bearer access-2"));
    expect(sessionStore.getState().pendingAccessTokenRefresh).toBeNull();
  });

  it("keeps the pending refresh in the session state while it runs", async () => {
    signIn({ ageShare: 0.95 });
    fakeServer({ [`POST ${TOKEN}`]: () => refreshAnswer() });
    const refresh = refreshAccessToken();
    expect(sessionStore.getState().pendingAccessTokenRefresh).toBe(refresh);
    expect(refreshAccessToken()).toBe(refresh);
    await refresh;
  });

  it("takes the token another tab refreshed while this one waited for the lock", async () => {
    signIn({ ageShare: 0.95 });
    const request = vi.fn(async (_name: string, callback: () => Promise<string>) => {
      // The other tab held the lock and wrote its refreshed session meanwhile.
      const stored = JSON.parse(localStorage.getItem(STORAGE_KEY)!);
      stored.token = "other-tab-access";
      stored.userTokenData = { ...stored.userTokenData, token: "other-tab-access", refreshToken: "other-tab-refresh" };
      localStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
      return callback();
    });
    vi.stubGlobal("navigator", { ...navigator, userAgent: navigator.userAgent, locks: { request } });
    const server = fakeServer({ [`GET ${PROFILE}`]: () => ok({}) });
    await profileCall();
    expect(request).toHaveBeenCalledWith("touchline-token-refresh", expect.any(Function));
    expect(server.callsTo(TOKEN)).toHaveLength(0);
    expect(server.callsTo(PROFILE)[0].authorization).toBe("Bearer other-tab-access");
    expect(sessionStore.getState().userTokenData?.refreshToken).toBe("other-tab-refresh");
  });

  it("refreshes under the lock when no other tab did", async () => {
    signIn({ ageShare: 0.95 });
    const request = vi.fn((_name: string, callback: () => Promise<string>) => callback());
    vi.stubGlobal("navigator", { ...navigator, userAgent: navigator.userAgent, locks: { request } });
    const server = fakeServer({ [`POST ${TOKEN}`]: () => refreshAnswer() });
    await refreshAccessToken();
    expect(request).toHaveBeenCalledTimes(1);
    expect(server.callsTo(TOKEN)).toHaveLength(1);
  });
});

describe("a 401 answer", () => {
  it("retries the call once with a forced refresh", async () => {
    signIn({ ageShare: 0 });
    let answers = 0;
    const server = fakeServer({
      [`POST ${TOKEN}`]: () => refreshAnswer(),
      [`GET ${PROFILE}`]: () => (answers++ === 0 ? failure(401, "unauthorized") : ok({ userId: "x" })),
    });
    await expect(profileCall()).resolves.toMatchObject({ content: { userId: "x" } });
    expect(server.calls.map((call) => `${call.path} ${call.authorization}`)).toEqual([
      `${PROFILE} Bearer access-1`,
      `${TOKEN} null`,
      `${PROFILE} Bearer access-2`,
    ]);
  });

  it("retries a call with a body with the same body", async () => {
    signIn({ ageShare: 0 });
    let answers = 0;
    const server = fakeServer({
      [`POST ${TOKEN}`]: () => refreshAnswer(),
      "POST /follow/save": () => (answers++ === 0 ? failure(401, "unauthorized") : ok({})),
    });
    const body = { reference_id: "7a1c0a8e2b3d4c5e6f7a8b9f", type: "identity_item" as const };
    await unwrap(api.POST("/follow/save", { body }));
    expect(server.callsTo("/follow/save").map((call) => call.body)).toEqual([body, body]);
  });

  it("fails after a second 401 without retrying again", async () => {
    signIn({ ageShare: 0 });
    const server = fakeServer({
      [`POST ${TOKEN}`]: () => refreshAnswer(),
      [`GET ${PROFILE}`]: () => failure(401, "unauthorized", "Authentication required"),
    });
    const error = await profileCall().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: "unauthorized" });
    expect(server.callsTo(PROFILE)).toHaveLength(2);
    expect(server.callsTo(TOKEN)).toHaveLength(1);
  });

  it("refreshes once when concurrent calls are refused with the same token", async () => {
    signIn({ ageShare: 0 });
    const server = fakeServer({
      [`POST ${TOKEN}`]: () => refreshAnswer(),
      [`GET ${PROFILE}`]: (call) => (call.authorization === "Bearer access-1" ? failure(401, "unauthorized") : ok({})),
    });
    await Promise.all([profileCall(), profileCall(), profileCall()]);
    expect(server.callsTo(TOKEN)).toHaveLength(1);
  });

  it("is not retried for a signed-out visitor", async () => {
    const server = fakeServer({ [`GET ${PROFILE}`]: () => failure(401, "unauthorized") });
    await expect(profileCall()).rejects.toMatchObject({ status: 401 });
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0].authorization).toBeNull();
  });
});

describe("a failed refresh", () => {
  it("fails the call with refresh_token_failed, clears the session and goes to the session-expired login", async () => {
    signIn({ ageShare: 0.95 });
    const server = fakeServer({ [`POST ${TOKEN}`]: () => failure(401, "refresh_token_failed", "Expired Session") });
    const error = await profileCall().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "refresh_token_failed", status: 401 });
    expect(server.callsTo(PROFILE)).toHaveLength(0);
    expect(sessionStore.getState()).toMatchObject({ token: null, user: null, userTokenData: null });
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();
    expect(navigateTo).toHaveBeenCalledWith("/auth/login/?sessionExpired=true", { replace: true });
    expect(server.callsTo("/user/logout")).toHaveLength(0);
  });

  it("ends the session the same way when there is no refresh token", async () => {
    signIn({ ageShare: 0.95, refreshToken: "" });
    const server = fakeServer({});
    await expect(profileCall()).rejects.toMatchObject({ code: "refresh_token_failed" });
    expect(server.calls).toHaveLength(0);
    expect(navigateTo).toHaveBeenCalledWith("/auth/login/?sessionExpired=true", { replace: true });
  });

  it("sends a federated sports sign-on session home when the login page is skipped", async () => {
    queryClient.setQueryData(appConfigQuery.queryKey, { options: { skip_login: true } } as never);
    signIn({ ageShare: 0.95, provider: "ifa" });
    fakeServer({ [`POST ${TOKEN}`]: () => failure(401, "refresh_token_failed") });
    await expect(profileCall()).rejects.toMatchObject({ code: "refresh_token_failed" });
    expect(navigateTo).toHaveBeenCalledWith("/", { replace: true });
  });

  it("ends the session on any 401 of the token endpoint", async () => {
    signIn({ ageShare: 0.95 });
    fakeServer({ [`POST ${TOKEN}`]: () => failure(401, "unauthorized") });
    await expect(profileCall()).rejects.toMatchObject({ code: "refresh_token_failed" });
    expect(sessionStore.getState().token).toBeNull();
    expect(navigateTo).toHaveBeenCalledWith("/auth/login/?sessionExpired=true", { replace: true });
  });

  it.each([
    [503, "database_unavailable"],
    [429, "too_many_requests"],
    [400, "validation_error"],
  ])("keeps the session and fails the call with the server's error after a %i (%s)", async (status, code) => {
    signIn({ ageShare: 1.1 }); // expired: nothing else to send
    const server = fakeServer({ [`POST ${TOKEN}`]: () => failure(status, code) });
    await expect(profileCall()).rejects.toMatchObject({ status, code });
    expect(server.callsTo(PROFILE)).toHaveLength(0);
    expect(sessionStore.getState()).toMatchObject({ token: "access-1", userTokenData: { refreshToken: "refresh-1" } });
    expect(localStorage.getItem(STORAGE_KEY)).not.toBeNull();
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it("sends the current token when an early refresh fails before the token has expired", async () => {
    signIn({ ageShare: 0.9 });
    const server = fakeServer({
      [`POST ${TOKEN}`]: () => failure(429, "too_many_requests"),
      [`GET ${PROFILE}`]: () => ok({}),
    });
    await profileCall();
    expect(server.callsTo(TOKEN)).toHaveLength(1);
    expect(server.callsTo(PROFILE)[0].authorization).toBe("Bearer access-1");
  });
});
