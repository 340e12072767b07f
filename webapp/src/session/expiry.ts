import { appConfigQuery } from "@/lib/config";
import { navigateTo } from "@/lib/navigation";
import { queryClient } from "@/lib/queryClient";
import { emptySession, sessionStore } from "./store";

/*
 * How a session ends by itself: the token refresh (refresh.ts) and the socket (realtime/) end it,
 * and sign-in and logout (auth.ts) use the same paths. Nothing here calls the server, so the
 * token code and the sign-in code both build on this module instead of on each other.
 */

/** Where the viewer goes when the session ends by itself (spec §2, §4). */
export const SESSION_EXPIRED_PATH = "/auth/login/?sessionExpired=true";
export const DEVICE_NOT_ALLOWED_PATH = "/auth/login/?deviceNoLongerAllowedError=true";

/**
 * Forgets the session in this browser: token, token data, user, cards, selections, followed,
 * devices and tickets (spec §4). The server is not told: logout revokes the token first.
 */
export function clearSession(): void {
  sessionStore.setState({ ...emptySession() });
}

/**
 * The session ended by itself (refresh failed): log out without revocation and go to the
 * login page with the session-expired flag, or home for the federated sports sign-on when
 * the login page is skipped. Does nothing when there is no session left to expire.
 */
export async function expireSession(): Promise<void> {
  const { token, user, userTokenData } = sessionStore.getState();
  if (!token && !user) return;
  const skipLogin =
    userTokenData?.provider === "ifa" && !!queryClient.getQueryData(appConfigQuery.queryKey)?.options?.skip_login;
  clearSession();
  navigateTo(skipLogin ? "/" : SESSION_EXPIRED_PATH, { replace: true });
}

/** This device was removed from the account (another device, or the device check). */
export async function endSessionOnRemovedDevice(): Promise<void> {
  clearSession();
  navigateTo(DEVICE_NOT_ALLOWED_PATH, { replace: true });
}
