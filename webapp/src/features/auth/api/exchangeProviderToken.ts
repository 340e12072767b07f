import { api } from "@/api/client";
import { unwrapRateLimited } from "./retryAfter";
import { deviceInfo } from "../signIn/deviceInfo";
import { STRATEGY, type FederatedProvider, type LoginResponse } from "./types";

export type ProviderTokenType = "id_token" | "access_token";

/**
 * POST /oauth2/token, federated sign-on (spec §7): the server checks the provider's token and
 * answers like a sign-in (auth_data.isRegister tells a first sign-in). `displayName` is only used
 * when the account is created (Apple's first name plus last name).
 */
export async function exchangeProviderToken(args: {
  provider: FederatedProvider;
  token: string;
  tokenType: ProviderTokenType;
  displayName?: string;
}): Promise<LoginResponse> {
  const displayName = args.displayName?.trim();
  const answer = await unwrapRateLimited(
    api.POST("/oauth2/token", {
      body: {
        grant_type: "token-exchange",
        subject_token: args.token,
        subject_token_type: `urn:ietf:params:oauth:token-type:${args.tokenType}`,
        subject_issuer: args.provider,
        requested_token_type: "urn:ietf:params:oauth:token-type:access_token",
        device: deviceInfo(),
        strategy: STRATEGY,
        ...(displayName ? { profile: { display_name: displayName } } : {}),
      },
    }),
  );
  if (!answer.auth_data || !("device_error" in answer.content)) {
    throw new Error("The token exchange did not answer with a sign-in result");
  }
  return { ...answer, content: answer.content, auth_data: answer.auth_data };
}
