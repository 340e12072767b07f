import { useSyncExternalStore } from "react";
import type { components } from "@/api/schema.gen";
import type { Device } from "@/entities/device";
import type { FollowedItem } from "@/entities/followed";
import type { UserProfile } from "@/entities/user";

export type SignInProvider = components["schemas"]["SignInProvider"];
export type CardSummary = components["schemas"]["CardSummary"];
export type PpvTicket = components["schemas"]["Purchase"];

/** The token chain of the current session (spec §3). Times are epoch milliseconds. */
export interface UserTokenData {
  token: string;
  /** When the access token expires (update time + expires_in). */
  tokenExpirationTime: number;
  /** When this access token was received. */
  tokenUpdateTime: number;
  refreshToken: string;
  /** Who issued the session: session expiry goes to "/" for ifa with skip-login (spec §4). */
  provider?: SignInProvider;
}

/** User session state (spec §3). */
export interface SessionState {
  user: UserProfile | null;
  devices: Device[];
  /** Followed items by id. */
  followed: Record<string, FollowedItem>;
  /** Watchlist video ids. */
  selected: string[];
  token: string | null;
  userTokenData: UserTokenData | null;
  creditCard: CardSummary | null;
  creditCardToken: string | null;
  ppvTickets: PpvTicket[];
  /** The one refresh in flight in this tab (spec §4), resolving to the new access token. */
  pendingAccessTokenRefresh: Promise<string> | null;
}

export const STORAGE_KEY = "ott-data";
/** Only these survive a reload (spec §3); cards, tickets and selections are fetched again. */
export const PERSISTED_KEYS = ["user", "token", "userTokenData", "followed", "devices"] as const;
type PersistedKey = (typeof PERSISTED_KEYS)[number];
export type PersistedSession = Pick<SessionState, PersistedKey>;

export function emptySession(): SessionState {
  return {
    user: null,
    devices: [],
    followed: {},
    selected: [],
    token: null,
    userTokenData: null,
    creditCard: null,
    creditCardToken: null,
    ppvTickets: [],
    pendingAccessTokenRefresh: null,
  };
}

/** The persisted part of the session as stored now (another tab may have written it). */
export function readPersistedSession(): Partial<PersistedSession> | null {
  const raw = readStored();
  return raw ? parsePersisted(raw) : null;
}

function readStored(): string | null {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null; // storage disabled: this page keeps its own session
  }
}

function parsePersisted(raw: string): Partial<PersistedSession> | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const source = value as Record<string, unknown>;
  const persisted: Partial<PersistedSession> = {};
  if (isObject(source.user)) persisted.user = source.user as unknown as UserProfile;
  if (typeof source.token === "string") persisted.token = source.token;
  if (isTokenData(source.userTokenData)) persisted.userTokenData = source.userTokenData;
  if (isObject(source.followed)) persisted.followed = source.followed as Record<string, FollowedItem>;
  if (Array.isArray(source.devices)) persisted.devices = source.devices as Device[];
  return persisted;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

function isTokenData(value: unknown): value is UserTokenData {
  return (
    isObject(value) &&
    typeof value.token === "string" &&
    typeof value.refreshToken === "string" &&
    typeof value.tokenExpirationTime === "number" &&
    typeof value.tokenUpdateTime === "number"
  );
}

function persistedPart(state: SessionState): PersistedSession {
  return {
    user: state.user,
    token: state.token,
    userTokenData: state.userTokenData,
    followed: state.followed,
    devices: state.devices,
  };
}

/**
 * What to write: `next`, unless another tab stored a newer token chain since this one last read
 * storage (a page restored from the back/forward cache got no storage events meanwhile). Writing
 * this tab's would put back a refresh token the server has already rotated, so the stored chain
 * is taken over instead, with the stored session as a whole when it is another viewer's.
 */
function withNewestTokens(next: SessionState): SessionState {
  if (!next.userTokenData) return next; // ending the session: nothing to keep
  const stored = readPersistedSession();
  if (
    !stored?.token ||
    !stored.userTokenData ||
    stored.userTokenData.tokenUpdateTime <= next.userTokenData.tokenUpdateTime
  )
    return next;
  if (stored.user?.id !== next.user?.id) return { ...emptySession(), ...stored };
  return { ...next, token: stored.token, userTokenData: stored.userTokenData };
}

function writePersisted(state: SessionState): void {
  try {
    if (!state.token && !state.user) globalThis.localStorage?.removeItem(STORAGE_KEY);
    else globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify(persistedPart(state)));
  } catch {
    // Private mode or a full quota: the session still works for this page's lifetime.
  }
}

type Listener = (state: SessionState, previous: SessionState) => void;

/** A tiny external store: the session is read outside React (the HTTP client) as much as inside. */
function createSessionStore() {
  let state: SessionState = { ...emptySession(), ...readPersistedSession() };
  const listeners = new Set<Listener>();

  function commit(next: SessionState, persist: boolean): void {
    const previous = state;
    const writes = persist && PERSISTED_KEYS.some((key) => previous[key] !== next[key]);
    state = writes ? withNewestTokens(next) : next;
    if (writes) writePersisted(state);
    for (const listener of listeners) listener(state, previous);
  }

  return {
    getState: (): SessionState => state,
    setState(partial: Partial<SessionState>): void {
      commit({ ...state, ...partial }, true);
    },
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /**
     * Takes over what another tab wrote under ott-data (a refreshed token, a sign-in, a logout)
     * without writing it back. A session that disappeared there is over here too.
     */
    adoptPersisted(raw: string | null): void {
      const persisted = raw ? parsePersisted(raw) : null;
      if (!persisted?.token) {
        if (state.token || state.user) commit(emptySession(), false);
        return;
      }
      commit({ ...state, ...persisted }, false);
    },
  };
}

export const sessionStore = createSessionStore();

if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.key === STORAGE_KEY) sessionStore.adoptPersisted(event.newValue);
    else if (event.key === null) sessionStore.adoptPersisted(null); // localStorage.clear() elsewhere
  });
  // A page restored from the back/forward cache missed the storage events sent meanwhile.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) sessionStore.adoptPersisted(readStored());
  });
}

/** Subscribes a component to a slice of the session. Return stored values or primitives, not new objects. */
export function useSession<T>(selector: (state: SessionState) => T): T {
  return useSyncExternalStore(
    sessionStore.subscribe,
    () => selector(sessionStore.getState()),
    () => selector(sessionStore.getState()),
  );
}

export function isAuthenticated(state: SessionState): boolean {
  return !!state.token && !!state.user;
}

export function useIsAuthenticated(): boolean {
  return useSession(isAuthenticated);
}

export function useCurrentUser(): UserProfile | null {
  return useSession((state) => state.user);
}

// Derived lists are cached per `followed` map so selectors return the same array until it changes.
const itemsCache = new WeakMap<Record<string, FollowedItem>, FollowedItem[]>();
const identitiesCache = new WeakMap<Record<string, FollowedItem>, string[]>();

export function followedItems(state: SessionState): FollowedItem[] {
  let items = itemsCache.get(state.followed);
  if (!items) {
    items = Object.values(state.followed);
    itemsCache.set(state.followed, items);
  }
  return items;
}

/** Unique category ids of every followed item (spec §3 "Derived"). */
export function followedIdentitiesIds(state: SessionState): string[] {
  let ids = identitiesCache.get(state.followed);
  if (!ids) {
    ids = [...new Set(followedItems(state).flatMap((item) => item.identitiesId))];
    identitiesCache.set(state.followed, ids);
  }
  return ids;
}
