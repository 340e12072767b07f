/**
 * The browser's side of an OpenID Connect authorization-code request with PKCE (RFC 7636):
 * a random verifier and its S256 challenge, plus random `state` (CSRF) and `nonce` (replay)
 * values. They stay in the opener's memory; the server gets the verifier and nonce with the code.
 */
function base64Url(bytes: Uint8Array): string {
  let binary = "";
  bytes.forEach((byte) => (binary += String.fromCharCode(byte)));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** 32 random bytes → 43 URL-safe characters (the verifier's minimum length and alphabet). */
export function randomToken(byteLength = 32): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(byteLength)));
}

async function s256Challenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

export interface AuthorizationRequest {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export async function authorizationRequest(args: {
  authorizeUrl: string;
  clientId: string;
  redirectUri: string;
  scope: string;
}): Promise<AuthorizationRequest> {
  const state = randomToken();
  const nonce = randomToken();
  const codeVerifier = randomToken();
  const url = new URL(args.authorizeUrl);
  url.search = new URLSearchParams({
    ...Object.fromEntries(url.searchParams),
    response_type: "code",
    client_id: args.clientId,
    redirect_uri: args.redirectUri,
    scope: args.scope,
    state,
    nonce,
    code_challenge: await s256Challenge(codeVerifier),
    code_challenge_method: "S256",
  }).toString();
  return { url: url.toString(), state, nonce, codeVerifier };
}
