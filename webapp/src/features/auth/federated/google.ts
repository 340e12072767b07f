import { loadScript } from "./loadScript";

const SDK_URL = "https://accounts.google.com/gsi/client";

interface GoogleIdentity {
  initialize(options: {
    client_id: string;
    callback: (answer: { credential?: string }) => void;
    ux_mode: "popup";
    auto_select: boolean;
    context: "signin";
  }): void;
  renderButton(parent: HTMLElement, options: Record<string, string | number>): void;
}

export function preloadGoogle(): Promise<void> {
  return loadScript(SDK_URL);
}

/**
 * "Sign in with Google" through Google Identity Services: Google renders its own button and
 * hands over an ID token (audience = our client id), which the server verifies with Google's
 * keys. An ID token cannot be replayed from another app the way an access token could.
 */
export async function renderGoogleButton(
  parent: HTMLElement,
  args: { clientId: string; locale: string; onIdToken: (idToken: string | undefined) => void },
): Promise<void> {
  await preloadGoogle();
  const sdk = (window as unknown as { google?: { accounts?: { id?: GoogleIdentity } } }).google?.accounts?.id;
  if (!sdk) throw new Error("Google Identity Services did not start");
  sdk.initialize({
    client_id: args.clientId,
    callback: (answer) => args.onIdToken(answer.credential),
    ux_mode: "popup",
    auto_select: false,
    context: "signin",
  });
  sdk.renderButton(parent, {
    type: "standard",
    theme: "outline",
    size: "large",
    text: "continue_with",
    shape: "pill",
    logo_alignment: "left",
    width: Math.min(400, Math.max(200, parent.clientWidth || 320)),
    locale: args.locale,
  });
}
