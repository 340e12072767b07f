/**
 * Why a provider sign-in stopped before the server answered (spec §5, §8). The page shows
 * auth:flowErrors.{code}; the provider name fills '"{provider}" auth provider not supported!'.
 */
export type SignInFlowCode = "popup_closed" | "login_failed" | "provider_not_supported" | "facebook_failed";

export class SignInFlowError extends Error {
  constructor(
    readonly code: SignInFlowCode,
    readonly provider: string,
    detail?: string,
  ) {
    super(detail ?? code);
    this.name = "SignInFlowError";
  }
}
