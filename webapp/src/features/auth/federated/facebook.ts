import type { ProviderEntry } from "../api/types";
import { SignInFlowError } from "./errors";
import { loadScript } from "./loadScript";

const SDK_URL = "https://connect.facebook.net/en_US/sdk.js";
/** Spec §9. */
const FACEBOOK_SDK_VERSION = "v15.0";

interface FacebookLoginStatus {
  status: "connected" | "not_authorized" | "unknown";
  authResponse?: { accessToken?: string } | null;
}
interface FacebookSdk {
  init(options: { appId: string; version: string; cookie: boolean; xfbml: boolean }): void;
  login(callback: (response: FacebookLoginStatus) => void, options: { scope: string }): void;
}

let initializedFor: string | null = null;

export function preloadFacebook(): Promise<void> {
  return loadScript(SDK_URL);
}

/**
 * Facebook Login through its SDK (it runs its own popup). Spec §5: the answer must be
 * `connected` with an authResponse, else 'Facebook authentication failed'. Gives the access
 * token the server checks with the Graph API.
 */
export async function facebookAccessToken(entry: ProviderEntry): Promise<string> {
  try {
    await preloadFacebook();
  } catch {
    throw new SignInFlowError("facebook_failed", "facebook", "the Facebook SDK did not load");
  }
  const sdk = (window as unknown as { FB?: FacebookSdk }).FB;
  if (!sdk) throw new SignInFlowError("facebook_failed", "facebook", "the Facebook SDK did not start");
  if (initializedFor !== entry.client_id) {
    sdk.init({
      appId: entry.client_id,
      version: entry.sdk_version ?? FACEBOOK_SDK_VERSION,
      cookie: false,
      xfbml: false,
    });
    initializedFor = entry.client_id;
  }
  // Facebook separates permissions with commas; the server lists them like OAuth scopes.
  const scope = entry.scope
    .split(/[\s,]+/)
    .filter(Boolean)
    .join(",");
  const response = await new Promise<FacebookLoginStatus>((resolve) => sdk.login(resolve, { scope }));
  const token = response.status === "connected" ? response.authResponse?.accessToken : undefined;
  if (!token) throw new SignInFlowError("facebook_failed", "facebook");
  return token;
}
