import type { ProviderEntry } from "../api/types";
import { SignInFlowError } from "./errors";
import { loadScript } from "./loadScript";
import { randomToken } from "./pkce";

const SDK_URL = "https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js";
const CANCELLED = new Set(["popup_closed_by_user", "user_cancelled_authorize", "popup_blocked_by_browser"]);

interface AppleSignInAnswer {
  authorization: { id_token: string; code: string; state?: string };
  user?: { email?: string; name?: { firstName?: string; lastName?: string } };
}
interface AppleSdk {
  auth: {
    init(options: {
      clientId: string;
      scope: string;
      redirectURI: string;
      state: string;
      nonce: string;
      usePopup: boolean;
    }): void;
    signIn(): Promise<AppleSignInAnswer>;
  };
}

export function preloadApple(): Promise<void> {
  return loadScript(SDK_URL);
}

/** Spec §5: Apple's full name is the first name plus the last name (sent only on the first sign-in). */
function appleFullName(user: AppleSignInAnswer["user"]): string | undefined {
  const name = [user?.name?.firstName, user?.name?.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(" ");
  return name || undefined;
}

/**
 * Sign in with Apple through its SDK in popup mode. Gives the ID token the server verifies
 * against Apple's keys, and the viewer's name for a new account.
 */
export async function appleIdToken(entry: ProviderEntry): Promise<{ idToken: string; displayName?: string }> {
  try {
    await preloadApple();
  } catch {
    throw new SignInFlowError("login_failed", "apple", "the Apple SDK did not load");
  }
  const sdk = (window as unknown as { AppleID?: AppleSdk }).AppleID;
  if (!sdk) throw new SignInFlowError("login_failed", "apple", "the Apple SDK did not start");
  const state = randomToken();
  sdk.auth.init({
    clientId: entry.client_id,
    scope: entry.scope,
    // Apple wants a registered redirect URI even in popup mode: this site's callback page.
    redirectURI: entry.redirect_uri ?? `${window.location.origin}/auth/oauth2/callback/apple/`,
    state,
    nonce: randomToken(),
    usePopup: true,
  });
  let answer: AppleSignInAnswer;
  try {
    answer = await sdk.auth.signIn();
  } catch (error) {
    const reason = (error as { error?: unknown } | null)?.error;
    throw new SignInFlowError(
      CANCELLED.has(String(reason)) ? "popup_closed" : "login_failed",
      "apple",
      String(reason ?? ""),
    );
  }
  if (answer.authorization.state !== undefined && answer.authorization.state !== state) {
    throw new SignInFlowError("login_failed", "apple", "the answer's state is not this sign-in's");
  }
  if (!answer.authorization.id_token) throw new SignInFlowError("login_failed", "apple", "Apple sent no ID token");
  return { idToken: answer.authorization.id_token, displayName: appleFullName(answer.user) };
}
