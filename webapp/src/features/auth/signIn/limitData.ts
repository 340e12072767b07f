import type { SignInProvider } from "../api/types";

const PROVIDERS: readonly SignInProvider[] = ["credentials", "facebook", "apple", "google", "ifa"];

/**
 * What /auth/login/limit/?data= carries (spec §2): base64 of JSON {token, provider, username}.
 * `token` is the sign-in's limit ticket, which is all `complete_login` needs. The password the
 * spec also lists is deliberately left out: the ticket makes it unnecessary, and a password in a
 * URL ends up in the browser history.
 */
export interface LimitData {
  token: string;
  provider: SignInProvider;
  username?: string;
}

export function encodeLimitData(data: LimitData): string {
  const bytes = new TextEncoder().encode(JSON.stringify(data));
  let binary = "";
  bytes.forEach((byte) => (binary += String.fromCharCode(byte)));
  return btoa(binary);
}

/** The decoded data, or null when it is missing, not base64 JSON, or lacks a ticket. */
export function decodeLimitData(raw: string | null): LimitData | null {
  if (!raw) return null;
  let parsed: unknown;
  try {
    const binary = atob(raw.replace(/-/g, "+").replace(/_/g, "/").replace(/\s/g, ""));
    parsed = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== "object") return null;
  const { token, provider, username } = parsed as Record<string, unknown>;
  if (typeof token !== "string" || token.length < 16) return null;
  return {
    token,
    provider: PROVIDERS.includes(provider as SignInProvider) ? (provider as SignInProvider) : "credentials",
    ...(typeof username === "string" && username ? { username } : {}),
  };
}
