import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { QueryClient } from "@tanstack/react-query";
import { navigateTo } from "@/lib/navigation";
import { appConfigQuery } from "@/lib/config";
import { queryClient } from "@/lib/queryClient";
import { completeSignIn, loadSessionOnStartup, logout, watchViewerChanges } from "@/session/auth";
import { sessionStore, STORAGE_KEY } from "@/session/store";
import { notify } from "@/lib/notify";
import { API_PROFILE, failure, fakeServer, ok, refreshAnswer, signIn, signOutQuietly, USER } from "./fakeServer";

vi.mock("@/lib/navigation", () => ({ navigateTo: vi.fn(), registerNavigator: vi.fn() }));
vi.mock("@/lib/notify", () => ({ notify: { success: vi.fn(), danger: vi.fn(), dismiss: vi.fn() } }));

const THIS_DEVICE = {
  _id: "9b1c0a8e2b3d4c5e6f7a8ba3",
  added: "2026-10-02T09:15:00Z",
  updated: "2026-11-21T17:58:00Z",
  deviceId: navigator.userAgent,
  deviceName: navigator.userAgent,
  osName: "Linux",
  osVersion: null,
};

const FOLLOW = {
  _id: "2b1c0a8e2b3d4c5e6f7a8bd1",
  reference_id: "6a1c0a8e2b3d4c5e6f7a8b9d",
  type: "team",
  added: "2026-10-02T09:20:00Z",
  item: {
    _id: "6a1c0a8e2b3d4c5e6f7a8b9d",
    title: "Harbor City Mariners",
    shortName: "HCM",
    logo: "/media/logos/hcm.svg",
    content: { PosterH: "/media/posters/npd.svg", PosterF: null },
    identityId: ["7b1c0a8e2b3d4c5e6f7a8ba0"],
    media_type: "team",
  },
};

function setConfig(options: Record<string, boolean>) {
  queryClient.setQueryData(appConfigQuery.queryKey, { name_short: "Touchline", options } as never);
}

beforeEach(() => signOutQuietly());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(navigateTo).mockReset();
  vi.mocked(notify.danger).mockReset();
  queryClient.clear();
});

describe("completeSignIn", () => {
  it("stores the mapped user, the token data and the devices", () => {
    const before = Date.now();
    completeSignIn({
      profile: API_PROFILE,
      tokenData: { access_token: "a", expires_in: 900, refresh_token: "r" },
      devices: [THIS_DEVICE],
    });
    const state = sessionStore.getState();
    expect(state.user).toMatchObject({ id: API_PROFILE.userId, fullName: "Ada Lovelace" });
    expect(state.token).toBe("a");
    expect(state.userTokenData).toMatchObject({ token: "a", refreshToken: "r", provider: "credentials" });
    expect(state.userTokenData!.tokenUpdateTime).toBeGreaterThanOrEqual(before);
    expect(state.userTokenData!.tokenExpirationTime - state.userTokenData!.tokenUpdateTime).toBe(900_000);
    expect(state.devices).toEqual([expect.objectContaining({ id: THIS_DEVICE._id, isCurrent: true })]);
  });
});

describe("logout", () => {
  function fullSession() {
    signIn();
    sessionStore.setState({
      followed: { x: { id: "x", title: "X", type: "team", imageUrl: null, identitiesId: [] } },
      selected: ["v1"],
      devices: [{ id: "d" } as never],
      creditCard: { brand: "visa", last4: "4242", expMonth: 1, expYear: 2030 },
      creditCardToken: "card",
      ppvTickets: [{ _id: "p" } as never],
    });
  }

  it("clears token, token data, user, cards, selections, followed, devices and tickets", async () => {
    fullSession();
    fakeServer({ "POST /user/logout": () => ok(null) });
    await logout();
    expect(sessionStore.getState()).toMatchObject({
      token: null,
      userTokenData: null,
      user: null,
      creditCard: null,
      creditCardToken: null,
      selected: [],
      followed: {},
      devices: [],
      ppvTickets: [],
    });
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();
  });

  it("revokes the session with its token", async () => {
    fullSession();
    const server = fakeServer({ "POST /user/logout": () => ok(null) });
    await logout();
    expect(server.callsTo("/user/logout")).toEqual([expect.objectContaining({ authorization: "Bearer access-1" })]);
  });

  it("revokes with a refreshed token once the access token has expired", async () => {
    signIn({ ageShare: 1.1 });
    const server = fakeServer({ "POST /oauth2/token": () => refreshAnswer(), "POST /user/logout": () => ok(null) });
    await logout();
    expect(server.callsTo("/user/logout")).toEqual([expect.objectContaining({ authorization: "Bearer access-2" })]);
    expect(sessionStore.getState().token).toBeNull();
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();
  });

  it("revokes with the stored token when the refresh cannot be made, and still ends the session", async () => {
    signIn({ ageShare: 1.1 });
    const server = fakeServer({
      "POST /oauth2/token": () => failure(503, "database_unavailable"),
      "POST /user/logout": () => ok(null),
    });
    await expect(logout()).resolves.toBeUndefined();
    expect(server.callsTo("/user/logout")).toEqual([expect.objectContaining({ authorization: "Bearer access-1" })]);
    expect(sessionStore.getState().user).toBeNull();
  });

  it("does not call the server when revokeToken is false", async () => {
    fullSession();
    const server = fakeServer({});
    await logout({ revokeToken: false });
    expect(server.calls).toHaveLength(0);
    expect(sessionStore.getState().token).toBeNull();
  });

  it("never throws, even offline with an expired token", async () => {
    signIn({ ageShare: 1.1 });
    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.reject(new TypeError("Failed to fetch"))),
    );
    await expect(logout()).resolves.toBeUndefined();
    expect(sessionStore.getState().user).toBeNull();
  });
});

describe("loadSessionOnStartup", () => {
  function startupServer(enabled = true) {
    return fakeServer({
      "POST /user/check_current_device": () => ok({ devices: [THIS_DEVICE], enabled, limit: 5 }),
      "GET /user/get_profile": () => ok({ ...API_PROFILE, displayName: "Ada King" }),
      "GET /follow/list_by_user": () => ok({ entries: [FOLLOW] }),
      "GET /user/get_watchlist_ids": () => ok({ selected: ["5f1c0a8e2b3d4c5e6f7a8b9c"] }),
      "POST /user/logout": () => ok(null),
    });
  }

  it("does nothing for a signed-out visitor", async () => {
    const server = startupServer();
    await loadSessionOnStartup();
    expect(server.calls).toHaveLength(0);
  });

  it("checks this device, refreshes the user and devices, and loads followed items and the watchlist", async () => {
    setConfig({ teams_short_name: true });
    signIn();
    const server = startupServer();
    await loadSessionOnStartup();
    expect(server.callsTo("/user/check_current_device")[0].body).toEqual({
      device_id: navigator.userAgent,
      device_name: navigator.userAgent,
      register_new: "no_register",
    });
    const follows = server.callsTo("/follow/list_by_user")[0].path;
    expect(new URLSearchParams(follows.split("?")[1])).toEqual(new URLSearchParams("size=150&version=2"));
    const state = sessionStore.getState();
    expect(state.user?.fullName).toBe("Ada King");
    expect(state.devices[0].isCurrent).toBe(true);
    expect(state.followed).toEqual({
      "6a1c0a8e2b3d4c5e6f7a8b9d": {
        id: FOLLOW.item._id,
        title: "HCM",
        type: "team",
        imageUrl: "/media/logos/hcm.svg",
        identitiesId: FOLLOW.item.identityId,
      },
    });
    expect(state.selected).toEqual(["5f1c0a8e2b3d4c5e6f7a8b9c"]);
  });

  it("signs out a device the account no longer allows", async () => {
    signIn();
    const server = startupServer(false);
    await loadSessionOnStartup();
    expect(sessionStore.getState().token).toBeNull();
    expect(navigateTo).toHaveBeenCalledWith("/auth/login/?deviceNoLongerAllowedError=true", { replace: true });
    expect(server.callsTo("/follow/list_by_user")).toHaveLength(0);
  });

  it("shows a translated notification when the follow list cannot load", async () => {
    signIn();
    fakeServer({
      "POST /user/check_current_device": () => ok({ devices: [THIS_DEVICE], enabled: true, limit: 5 }),
      "GET /user/get_profile": () => ok(API_PROFILE),
      "GET /follow/list_by_user": () => failure(503, "database_unavailable", "Database unavailable"),
      "GET /user/get_watchlist_ids": () => ok({ selected: [] }),
    });
    await loadSessionOnStartup();
    expect(notify.danger).toHaveBeenCalledTimes(1);
    expect(sessionStore.getState().token).toBe("access-1");
  });
});

describe("watchViewerChanges", () => {
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
  let client: QueryClient;
  let stop: () => void;

  function cacheAnswers() {
    client.setQueryData(appConfigQuery.queryKey, { name_short: "Touchline" } as never);
    client.setQueryData(["event", "5f1c0a8e2b3d4c5e6f7a8b9c"], { title: "personal availability" });
    client.setQueryData(["purchases"], ["p1"]);
  }

  function cachedKeys() {
    return client
      .getQueryCache()
      .getAll()
      .map((query) => query.queryKey[0]);
  }

  function viewerServer() {
    return fakeServer({
      "GET /follow/list_by_user": () => ok({ entries: [FOLLOW] }),
      "GET /user/get_watchlist_ids": () => ok({ selected: ["5f1c0a8e2b3d4c5e6f7a8b9c"] }),
      "POST /user/logout": () => ok(null),
    });
  }

  beforeEach(() => {
    // A sign-in loads the viewer's follows and watchlist ids. Answered here whatever the test
    // looks at: a load failing after its test would notify in the next one (notifyLoadFailure).
    viewerServer();
    client = new QueryClient();
    stop = watchViewerChanges(client);
  });
  afterEach(async () => {
    stop();
    await flush();
  });

  it("removes every cached answer but the configuration on logout", async () => {
    signIn();
    viewerServer();
    cacheAnswers();
    await logout();
    expect(cachedKeys()).toEqual(["app-config"]);
  });

  it("removes them when another viewer signs in, here or in another tab", () => {
    signIn();
    cacheAnswers();
    viewerServer();
    sessionStore.setState({ user: { ...USER, id: "9a1c0a8e2b3d4c5e6f7a8bff" }, token: "other-viewer" });
    expect(cachedKeys()).toEqual(["app-config"]);
  });

  it("keeps them while the viewer stays the same (refreshed token, updated profile)", () => {
    signIn();
    cacheAnswers();
    sessionStore.setState({ token: "access-2", user: { ...USER, fullName: "Ada King" } });
    expect(cachedKeys()).toHaveLength(3);
  });

  it("loads the followed items and watchlist ids of a viewer who signs in", async () => {
    const server = viewerServer();
    completeSignIn({ profile: API_PROFILE, tokenData: { access_token: "a", expires_in: 900, refresh_token: "r" } });
    await vi.waitFor(() => expect(sessionStore.getState().selected).toEqual(["5f1c0a8e2b3d4c5e6f7a8b9c"]));
    await vi.waitFor(() => expect(Object.keys(sessionStore.getState().followed)).toEqual([FOLLOW.item._id]));
    expect(server.callsTo("/follow/list_by_user")[0].authorization).toBe("Bearer a");
  });

  it("drops, without a notification, what answers after the viewer signed out", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = fakeServer({
      "GET /follow/list_by_user": async () => (await gate, failure(503, "database_unavailable")),
      "GET /user/get_watchlist_ids": async () => (await gate, ok({ selected: ["5f1c0a8e2b3d4c5e6f7a8b9c"] })),
    });
    signIn();
    await vi.waitFor(() => expect(server.calls).toHaveLength(2));
    signOutQuietly();
    release();
    await flush();
    await flush();
    expect(sessionStore.getState()).toMatchObject({ selected: [], followed: {} });
    expect(notify.danger).not.toHaveBeenCalled();
  });
});
