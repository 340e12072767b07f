import { api } from "@/api/client";
import { unwrapRateLimited } from "./retryAfter";
import { deviceInfo } from "../signIn/deviceInfo";
import { STRATEGY, type LoginResponse } from "./types";

/**
 * POST /oauth2/ifa/callback: the server exchanges the popup's authorization code with the
 * provider (it holds the client secret), checks the ID token and its nonce, and signs in.
 */
export function ifaCallback(args: {
  code: string;
  redirectUri: string;
  codeVerifier: string;
  state: string;
  nonce: string;
}): Promise<LoginResponse> {
  return unwrapRateLimited(
    api.POST("/oauth2/ifa/callback", {
      body: {
        code: args.code,
        redirect_uri: args.redirectUri,
        code_verifier: args.codeVerifier,
        state: args.state,
        nonce: args.nonce,
        device: deviceInfo(),
        strategy: STRATEGY,
      },
    }),
  );
}
