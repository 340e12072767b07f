import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, renderHook } from "@testing-library/react";
import {
  emptySession,
  followedIdentitiesIds,
  followedItems,
  sessionStore,
  STORAGE_KEY,
  useCurrentUser,
  useIsAuthenticated,
} from "@/session/store";
import type { FollowedItem } from "@/entities/followed";
import { USER, signIn, signOutQuietly } from "./fakeServer";

const league: FollowedItem = {
  id: "l1",
  title: "NPD",
  type: "identity_item",
  imageUrl: null,
  identitiesId: ["football", "women"],
};
const team: FollowedItem = { id: "t1", title: "HCM", type: "team", imageUrl: "/logo.svg", identitiesId: ["football"] };

function storageEvent(newValue: string | null) {
  window.dispatchEvent(new StorageEvent("storage", { key: STORAGE_KEY, newValue }));
}

beforeEach(() => signOutQuietly());
afterEach(() => vi.restoreAllMocks());

describe("persistence under ott-data", () => {
  it("holds only user, token, userTokenData, followed and devices", () => {
    signIn();
    sessionStore.setState({
      followed: { l1: league },
      selected: ["v1"],
      creditCard: { brand: "visa", last4: "4242", expMonth: 12, expYear: 2029 },
      creditCardToken: "card-token",
      ppvTickets: [{ _id: "p" } as never],
    });
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY)!);
    expect(Object.keys(stored).sort()).toEqual(["devices", "followed", "token", "user", "userTokenData"]);
    expect(stored).toMatchObject({ token: "access-1", user: { id: USER.id }, followed: { l1: league } });
  });

  it("is not rewritten when only unpersisted fields change", () => {
    signIn();
    const setItem = vi.spyOn(Storage.prototype, "setItem");
    sessionStore.setState({ selected: ["v1"], creditCardToken: "x" });
    expect(setItem).not.toHaveBeenCalled();
  });

  it("is read back when the app starts, ignoring anything else stored there", async () => {
    const userTokenData = { token: "stored", tokenUpdateTime: 1, tokenExpirationTime: 2, refreshToken: "r" };
    localStorage.setItem(
      STORAGE_KEY,
      JSON.stringify({
        user: USER,
        token: "stored",
        userTokenData,
        followed: { l1: league },
        devices: [],
        creditCardToken: "leak",
      }),
    );
    vi.resetModules();
    const fresh = await import("@/session/store");
    expect(fresh.sessionStore.getState()).toMatchObject({
      token: "stored",
      user: USER,
      userTokenData,
      followed: { l1: league },
      creditCardToken: null,
    });
  });

  it("is removed once the session is empty", () => {
    signIn();
    sessionStore.setState(emptySession());
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();
  });
});

describe("other tabs", () => {
  it("take over a session signed in or refreshed elsewhere", () => {
    const data = { token: "tab-2", tokenUpdateTime: 1, tokenExpirationTime: 2, refreshToken: "r2" };
    storageEvent(JSON.stringify({ user: USER, token: "tab-2", userTokenData: data, followed: {}, devices: [] }));
    expect(sessionStore.getState()).toMatchObject({ token: "tab-2", user: { id: USER.id }, userTokenData: data });
  });

  it("end here a session logged out elsewhere, including what is not persisted", () => {
    signIn();
    sessionStore.setState({ selected: ["v1"], creditCardToken: "x" });
    storageEvent(null);
    expect(sessionStore.getState()).toMatchObject({ token: null, user: null, selected: [], creditCardToken: null });
  });

  it("ignore what is not a session", () => {
    signIn();
    storageEvent("{not json");
    expect(sessionStore.getState().token).toBeNull();
    signIn();
    window.dispatchEvent(new StorageEvent("storage", { key: "something-else", newValue: null }));
    expect(sessionStore.getState().token).toBe("access-1");
  });
});

describe("a tab that missed another tab's refresh", () => {
  /** What another tab writes without this one hearing of it (a back/forward cache restore). */
  function otherTabRefreshed(user = USER) {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY)!);
    const tokenUpdateTime = stored.userTokenData.tokenUpdateTime + 60_000;
    const userTokenData = {
      token: "other-tab",
      tokenUpdateTime,
      tokenExpirationTime: tokenUpdateTime + 900_000,
      refreshToken: "refresh-other",
    };
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...stored, user, token: "other-tab", userTokenData }));
    return userTokenData;
  }

  it("keeps the newer stored token chain when it writes, instead of a spent refresh token", () => {
    signIn();
    const newer = otherTabRefreshed();
    sessionStore.setState({ followed: { l1: league } });
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY)!)).toMatchObject({
      token: "other-tab",
      userTokenData: newer,
      followed: { l1: league },
    });
    expect(sessionStore.getState()).toMatchObject({
      token: "other-tab",
      userTokenData: newer,
      followed: { l1: league },
    });
  });

  it("writes its own token chain when it is the newer one", () => {
    signIn({ ageShare: 0.5 });
    sessionStore.setState({
      token: "refreshed",
      userTokenData: {
        token: "refreshed",
        tokenUpdateTime: Date.now(),
        tokenExpirationTime: Date.now() + 900_000,
        refreshToken: "r2",
      },
    });
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY)!)).toMatchObject({
      token: "refreshed",
      userTokenData: { refreshToken: "r2" },
    });
  });

  it("takes over the whole stored session when the newer one is another viewer's", () => {
    signIn();
    sessionStore.setState({ creditCardToken: "previous viewer's" });
    otherTabRefreshed({ ...USER, id: "9a1c0a8e2b3d4c5e6f7a8bff" });
    sessionStore.setState({ followed: { l1: league } });
    expect(sessionStore.getState()).toMatchObject({
      token: "other-tab",
      user: { id: "9a1c0a8e2b3d4c5e6f7a8bff" },
      followed: {},
      creditCardToken: null,
    });
  });

  it("reads storage again when the page comes back from the back/forward cache", () => {
    signIn();
    const newer = otherTabRefreshed();
    window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: false }));
    expect(sessionStore.getState().token).toBe("access-1");
    window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true }));
    expect(sessionStore.getState()).toMatchObject({ token: "other-tab", userTokenData: newer });
  });
});

describe("derived session values", () => {
  it("lists followed items and their unique category ids", () => {
    sessionStore.setState({ followed: { l1: league, t1: team } });
    const state = sessionStore.getState();
    expect(followedItems(state)).toEqual([league, team]);
    expect(followedIdentitiesIds(state)).toEqual(["football", "women"]);
    // Stable until `followed` changes, so components can select them.
    expect(followedItems(sessionStore.getState())).toBe(followedItems(state));
  });

  it("counts as authenticated only with both a token and a user", () => {
    const { result } = renderHook(() => ({ authenticated: useIsAuthenticated(), user: useCurrentUser() }));
    expect(result.current).toEqual({ authenticated: false, user: null });
    act(() => sessionStore.setState({ token: "t" }));
    expect(result.current.authenticated).toBe(false);
    act(() => sessionStore.setState({ user: USER }));
    expect(result.current).toEqual({ authenticated: true, user: USER });
  });
});
