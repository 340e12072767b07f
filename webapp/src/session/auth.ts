import i18n from "i18next";
import type { QueryClient } from "@tanstack/react-query";
import type { components } from "@/api/schema.gen";
import { api, unwrap } from "@/api/client";
import { errorText } from "@/api/errors";
import { appConfigQuery, type AppConfig } from "@/lib/config";
import { queryClient } from "@/lib/queryClient";
import { mapDevices } from "@/entities/device";
import { mapFollowEntries } from "@/entities/followed";
import { mapUserProfile } from "@/entities/user";
import { notify } from "@/lib/notify";
import { currentDevice } from "./device";
import { tokenDataFrom, validAccessToken } from "./refresh";
import { clearSession, endSessionOnRemovedDevice } from "./expiry";
import { isAuthenticated, sessionStore, type SignInProvider } from "./store";

type ApiProfile = components["schemas"]["Profile"];
type ApiTokenData = components["schemas"]["TokenData"];
type ApiDevice = components["schemas"]["Device"];

/** Follow list page size at start-up (spec §9). */
export const FOLLOW_LIST_SIZE = 150;

export interface SignInContent {
  profile: ApiProfile;
  tokenData: ApiTokenData;
  devices?: ApiDevice[];
  /** Who signed the viewer in (credentials when omitted). */
  provider?: SignInProvider;
}

function appConfig(): AppConfig | undefined {
  return queryClient.getQueryData(appConfigQuery.queryKey);
}

/** Stores a successful sign-in or registration: the mapped user, the token chain, the devices. */
export function completeSignIn({ profile, tokenData, devices, provider = "credentials" }: SignInContent): void {
  const userTokenData = tokenDataFrom(tokenData.access_token, tokenData.expires_in, tokenData.refresh_token, provider);
  const state = sessionStore.getState();
  sessionStore.setState({
    user: mapUserProfile(profile),
    token: userTokenData.token,
    userTokenData,
    devices: devices ? mapDevices(devices, currentDevice().id) : state.devices,
  });
}

/** Replaces the stored user after the profile changed (update_profile, get_profile). */
export function storeProfile(profile: ApiProfile): void {
  sessionStore.setState({ user: mapUserProfile(profile) });
}

/**
 * Ends the session (spec §4): clears token, token data, user, cards, selections, followed,
 * devices and tickets, then revokes the token on the server unless revokeToken is false.
 * The socket leaves the user room, and watchViewerChanges drops the cached answers, on their own
 * when the user disappears. Never throws.
 */
export async function logout({ revokeToken = true }: { revokeToken?: boolean } = {}): Promise<void> {
  const token = revokeToken ? await revocableToken() : null;
  clearSession();
  if (!token) return;
  try {
    await api.POST("/user/logout", { headers: { Authorization: `Bearer ${token}` } });
  } catch {
    // Offline: the local session is over anyway; the server's expires by itself.
  }
}

/**
 * A token the logout endpoint accepts. The call carries its own header, which the client neither
 * refreshes nor retries: an expired token would get 401 and leave the session valid on the server.
 */
async function revocableToken(): Promise<string | null> {
  try {
    return await validAccessToken();
  } catch {
    // The refresh failed (offline, 5xx): the stored token may still do. A refused refresh
    // token has ended the session already, leaving nothing to revoke.
    return sessionStore.getState().token;
  }
}

/**
 * Keeps the cache and the session's lists with the viewer: whenever the user changes (logout,
 * sign-in, another tab), every cached answer but the configuration goes, since answers may be
 * personal (availability, purchases) and merely marking them stale would show the previous
 * viewer's until refetched; a new viewer's followed items and watchlist ids load at once
 * (start-up loads them for a stored session). Install once; returns the function that stops it.
 */
export function watchViewerChanges(client: QueryClient): () => void {
  const configKey = appConfigQuery.queryKey[0];
  return sessionStore.subscribe((state, previous) => {
    const userId = state.user?.id;
    if (userId === previous.user?.id) return;
    client.removeQueries({ predicate: (query) => query.queryKey[0] !== configKey });
    if (userId) void Promise.all([loadFollowed(), loadSelected()]);
  });
}

/**
 * Start-up (spec §4): for a signed-in viewer, check that this device still belongs to the
 * account (refreshing the profile and devices), then load what the viewer follows and their
 * watchlist ids. A refused session ends through the client's refresh handling.
 */
export async function loadSessionOnStartup(): Promise<void> {
  if (!isAuthenticated(sessionStore.getState())) return;
  const allowed = await checkCurrentSession();
  if (!allowed) return;
  await Promise.all([loadFollowed(), loadSelected()]);
}

async function checkCurrentSession(): Promise<boolean> {
  const device = currentDevice();
  try {
    const [check, profile] = await Promise.all([
      unwrap(
        api.POST("/user/check_current_device", {
          body: { device_id: device.id, device_name: device.name, register_new: "no_register" },
        }),
      ),
      unwrap(api.GET("/user/get_profile")),
    ]);
    if (!check.content.enabled) {
      await endSessionOnRemovedDevice();
      return false;
    }
    sessionStore.setState({
      user: mapUserProfile(profile.content),
      devices: mapDevices(check.content.devices, device.id),
    });
  } catch {
    // Offline or the server is down: keep the stored session; the next call will tell.
    // A refused refresh token has already ended the session.
  }
  return isAuthenticated(sessionStore.getState());
}

/** Loads the followed items into the session (spec §7: size 150, version 2). */
export async function loadFollowed(): Promise<void> {
  const userId = sessionStore.getState().user?.id;
  try {
    const page = await unwrap(
      api.GET("/follow/list_by_user", { params: { query: { size: FOLLOW_LIST_SIZE, version: 2 } } }),
    );
    const teamsShortName = !!appConfig()?.options?.teams_short_name;
    if (isStillViewer(userId))
      sessionStore.setState({ followed: mapFollowEntries(page.content.entries, { teamsShortName }) });
  } catch (error) {
    notifyLoadFailure(error, userId);
  }
}

async function loadSelected(): Promise<void> {
  const userId = sessionStore.getState().user?.id;
  try {
    const ids = await unwrap(api.GET("/user/get_watchlist_ids"));
    if (isStillViewer(userId)) sessionStore.setState({ selected: ids.content.selected });
  } catch (error) {
    notifyLoadFailure(error, userId);
  }
}

/** A load answered after a logout (or a switch of account) belongs to nobody here any more. */
function isStillViewer(userId: string | undefined): boolean {
  const state = sessionStore.getState();
  return isAuthenticated(state) && state.user?.id === userId;
}

function notifyLoadFailure(error: unknown, userId: string | undefined): void {
  if (!isStillViewer(userId)) return; // the session ended meanwhile: nothing to report
  // The error messages are their own namespace, loaded when first needed.
  void i18n.loadNamespaces("errors").finally(() => notify.danger(errorText(error, i18n.t)));
}
