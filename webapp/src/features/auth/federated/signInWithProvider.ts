import { exchangeProviderToken } from "../api/exchangeProviderToken";
import type { LoginResponse, ProviderEntry } from "../api/types";
import { appleIdToken, preloadApple } from "./apple";
import { SignInFlowError } from "./errors";
import { facebookAccessToken, preloadFacebook } from "./facebook";
import { preloadGoogle } from "./google";
import { signInWithIfa } from "./ifa";

/** Brand names, shown as they are in every language. */
export const PROVIDER_NAMES: Record<string, string> = {
  facebook: "Facebook",
  apple: "Apple",
  google: "Google",
  ifa: "IFA",
};

/**
 * Runs a provider's sign-in (spec §5) up to the server's answer. Call it straight from the click
 * handler: providers open popups, which browsers only allow in answer to a click.
 * Google signs in through its own button (GoogleSignInButton), not through here.
 */
export async function signInWithProvider(entry: ProviderEntry): Promise<LoginResponse> {
  switch (entry.provider) {
    case "ifa":
      return signInWithIfa(entry);
    case "facebook": {
      const token = await facebookAccessToken(entry);
      return exchangeProviderToken({ provider: "facebook", token, tokenType: "access_token" });
    }
    case "apple": {
      const { idToken, displayName } = await appleIdToken(entry);
      return exchangeProviderToken({ provider: "apple", token: idToken, tokenType: "id_token", displayName });
    }
    default:
      throw new SignInFlowError("provider_not_supported", String(entry.provider));
  }
}

/** Google's ID token, once its button has signed the viewer in. */
export function signInWithGoogleIdToken(idToken: string | undefined): Promise<LoginResponse> {
  if (!idToken) return Promise.reject(new SignInFlowError("login_failed", "google", "Google sent no credential"));
  return exchangeProviderToken({ provider: "google", token: idToken, tokenType: "id_token" });
}

/** Loads the SDK of an SDK-based provider ahead of the click, so its popup opens in the click. */
export function preloadProviderSdk(entry: ProviderEntry): Promise<void> {
  if (entry.flow !== "sdk") return Promise.resolve();
  const preload = { facebook: preloadFacebook, apple: preloadApple, google: preloadGoogle }[entry.provider as string];
  return preload ? preload() : Promise.resolve();
}
