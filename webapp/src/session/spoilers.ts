import { useMemo, useSyncExternalStore } from "react";
import type { Middleware } from "openapi-fetch";
import type { QueryClient } from "@tanstack/react-query";
import { api } from "@/api/client";
import type { CatalogEvent } from "@/entities/event";
import { spoilerFreeEvent } from "@/entities/spoilers";
import { sessionStore } from "./store";

/**
 * Spoiler-free mode (issue 31 §1): no score or result anywhere until the viewer asks for one.
 *
 * - **Where it is kept.** In the profile's options (`spoilerFree`) for a signed-in viewer, in local
 *   storage for everyone (so the first paint knows it), and in the `tl_spoilers` cookie, which the
 *   server reads to make the page's first-view answers without scores (server/first_view.py).
 *   The account's choice wins once the profile is here.
 * - **How answers lose their scores.** Every call that can carry one asks with `spoilers=hide`
 *   (the contract's flag), unless it is about an event whose score the viewer chose to see
 *   ("Show score", kept for the tab's life). The components hide what the socket may still bring.
 * - **Changing it** drops the cached answers, so nothing from the other mode is shown again.
 */

const STORAGE_KEY = "spoiler-free";
const REVEALED_KEY = "spoilers-revealed";
export const SPOILERS_COOKIE = "tl_spoilers";
const COOKIE_MAX_AGE = 400 * 24 * 3600; // the longest browsers keep a cookie

/** The operations whose answers carry scores, results or a match's length (openapi.yaml `spoilers`). */
export const SPOILER_OPERATIONS: ReadonlySet<string> = new Set([
  "/event/list",
  "/event/search",
  "/search",
  "/event/get_by_id/id/{id}",
  "/event/stats",
  "/event/epg/{id}",
  "/event/catch_up/{id}",
  "/clip/list",
  "/clip/get_by_id/id/{id}",
  "/vod/get_related_videos",
  "/user/get_watchlist",
  "/user/get_continue_watching",
  "/tag/list",
]);

interface SpoilerState {
  on: boolean;
  /** Events whose score the viewer chose to see in this tab. */
  revealed: ReadonlySet<string>;
}

function readStored(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) === "on";
  } catch {
    return false; // storage blocked: off, as for a new visitor
  }
}

function readRevealed(): ReadonlySet<string> {
  try {
    const ids = JSON.parse(sessionStorage.getItem(REVEALED_KEY) ?? "[]") as unknown;
    return new Set(Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : []);
  } catch {
    return new Set();
  }
}

let state: SpoilerState = { on: readStored(), revealed: readRevealed() };
const listeners = new Set<() => void>();
let queries: QueryClient | null = null;

function publish(next: SpoilerState): void {
  state = next;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY && readStored() !== state.on) adopt(readStored());
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

function writeCookie(on: boolean): void {
  document.cookie = on
    ? `${SPOILERS_COOKIE}=hide; Path=/; Max-Age=${COOKIE_MAX_AGE}; SameSite=Lax`
    : `${SPOILERS_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
}

/** Takes `on` as the mode of this tab: stored, in the cookie, and the cached answers dropped. */
function adopt(on: boolean): void {
  try {
    if (on) localStorage.setItem(STORAGE_KEY, "on");
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Not kept past this page; the mode still applies here.
  }
  writeCookie(on);
  if (on === state.on) return;
  publish({ ...state, on });
  void queries?.resetQueries();
}

/** Whether spoiler-free mode is on. */
export function useSpoilerFree(): boolean {
  return useSyncExternalStore(subscribe, () => state.on);
}

/** Whether scores of `eventId` are hidden: the mode is on and the viewer did not reveal them. */
export function useScoresHidden(eventId: string | null | undefined): boolean {
  return useSyncExternalStore(subscribe, () => state.on && !(eventId && state.revealed.has(eventId)));
}

/** `event` as the viewer may see it: without its score while its scores are hidden. */
export function useSpoilerSafe(event: CatalogEvent): CatalogEvent {
  const hidden = useScoresHidden(event.id);
  return useMemo(() => (hidden ? spoilerFreeEvent(event) : event), [hidden, event]);
}

export function spoilerFree(): boolean {
  return state.on;
}

/** Whether `eventId`'s scores are hidden now (outside React: a toast's text). */
export function scoresHidden(eventId: string): boolean {
  return state.on && !state.revealed.has(eventId);
}

/**
 * Turns the mode on or off, and keeps it with the account of a signed-in viewer. Answers a
 * promise that fails when the account could not keep it (the tab keeps it anyway).
 */
export async function setSpoilerFree(on: boolean): Promise<void> {
  adopt(on);
  if (!sessionStore.getState().user) return;
  const { keepWithAccount } = await import("./spoilerAccount");
  await keepWithAccount(on);
}

/** "Show score": this event's answers carry its score again, in this tab (`client`'s answers asked again). */
export function revealScores(eventId: string, client: QueryClient | null = queries): void {
  if (!state.revealed.has(eventId)) setRevealed(eventId, true, client);
}

/** Hides this event's scores again ("Hide score" after "Show score"). */
export function hideScoresAgain(eventId: string, client: QueryClient | null = queries): void {
  if (state.revealed.has(eventId)) setRevealed(eventId, false, client);
}

function setRevealed(eventId: string, shown: boolean, client: QueryClient | null): void {
  const revealed = new Set(state.revealed);
  if (shown) revealed.add(eventId);
  else revealed.delete(eventId);
  try {
    sessionStorage.setItem(REVEALED_KEY, JSON.stringify([...revealed]));
  } catch {
    // This page only.
  }
  publish({ ...state, revealed });
  // Its answers were made in the other mode: ask again (dropping them, so none shows meanwhile).
  void client?.resetQueries({
    predicate: (query) => JSON.stringify(query.queryKey).includes(JSON.stringify(eventId)),
  });
}

/** Whether a request is about a revealed event: its id in the path or the query. */
function aboutRevealed(url: URL): boolean {
  if (state.revealed.size === 0) return false;
  const named = [...url.pathname.split("/"), ...url.searchParams.values()];
  return named.some((part) => state.revealed.has(part));
}

export const spoilerMiddleware: Middleware = {
  async onRequest({ request, schemaPath }) {
    if (!state.on || !SPOILER_OPERATIONS.has(schemaPath)) return undefined;
    const url = new URL(request.url);
    if (url.searchParams.has("spoilers") || aboutRevealed(url)) return undefined;
    url.searchParams.set("spoilers", "hide");
    // The same request at another address (a Request's URL cannot change).
    const body = request.body === null ? undefined : await request.clone().arrayBuffer();
    return new Request(url, {
      method: request.method,
      headers: request.headers,
      body,
      signal: request.signal,
      credentials: request.credentials,
    });
  },
};

let installed = false;

/**
 * From now on, calls ask for answers without scores while the mode is on, and a change of mode
 * drops `client`'s answers. The account's choice is taken whenever a profile arrives. Start-up
 * installs it before the first call (main.tsx).
 */
export function hideSpoilersInCalls(client: QueryClient): void {
  if (installed) return;
  installed = true;
  queries = client;
  writeCookie(state.on);
  api.use(spoilerMiddleware);
  sessionStore.subscribe((session, previous) => {
    const chosen = session.user?.spoilerFree;
    if (chosen !== undefined && chosen !== null && session.user !== previous.user && chosen !== state.on) adopt(chosen);
  });
}
