import { ifaCallback } from "../api/ifaCallback";
import type { LoginResponse, ProviderEntry } from "../api/types";
import { SignInFlowError } from "./errors";
import { authorizationRequest } from "./pkce";
import { openCenteredPopup, waitForCallback } from "./popup";

/**
 * The ifa sign-on (authorization code with PKCE, in a popup). The popup goes to the provider's
 * authorize URL; its callback page hands `code` and `state` back here; this window checks the
 * state and gives the code, the verifier and the nonce to the server, which exchanges the code
 * (it holds the client secret) and signs the viewer in.
 *
 * Must be called from a click handler: the popup opens before the first await.
 */
export async function signInWithIfa(entry: ProviderEntry): Promise<LoginResponse> {
  if (!entry.authorize_url || !entry.redirect_uri)
    throw new SignInFlowError("login_failed", "ifa", "ifa is not set up for the popup flow");
  const popup = openCenteredPopup("about:blank", "touchline-ifa-sign-in");
  if (!popup) throw new SignInFlowError("popup_closed", "ifa", "the browser blocked the popup");
  let request;
  try {
    request = await authorizationRequest({
      authorizeUrl: entry.authorize_url,
      clientId: entry.client_id,
      redirectUri: entry.redirect_uri,
      scope: entry.scope,
    });
    popup.location.href = request.url;
  } catch (error) {
    popup.close();
    throw new SignInFlowError("login_failed", "ifa", error instanceof Error ? error.message : undefined);
  }
  const answer = await waitForCallback(popup, "ifa");
  if (answer.error) throw new SignInFlowError("login_failed", "ifa", answer.error_description || answer.error);
  if (answer.state !== request.state)
    throw new SignInFlowError("login_failed", "ifa", "the answer's state is not this sign-in's");
  if (!answer.code) throw new SignInFlowError("login_failed", "ifa", "the provider sent no code");
  return ifaCallback({
    code: answer.code,
    redirectUri: entry.redirect_uri,
    codeVerifier: request.codeVerifier,
    state: request.state,
    nonce: request.nonce,
  });
}
