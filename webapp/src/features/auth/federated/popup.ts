import { CALLBACK_CHANNEL, isCallbackMessage } from "./callbackMessage";
import { SignInFlowError } from "./errors";

/** Spec §9: the sign-in popup is at least 512 × 730 px and is checked for closing every 500 ms. */
export const POPUP_WIDTH = 512;
export const POPUP_HEIGHT = 730;
export const POPUP_CLOSED_CHECK_MS = 500;
/** A callback page posts its answer just before closing: give that message a moment to arrive. */
const CLOSED_GRACE_MS = 300;

/**
 * Opens the popup centred over this window. Call it straight from the click handler, before any
 * await, or the browser blocks it; navigate it once the provider URL is ready. Null when blocked.
 */
export function openCenteredPopup(url: string, name: string): Window | null {
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - POPUP_WIDTH) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - POPUP_HEIGHT) / 2));
  return window.open(url, name, `popup=yes,width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top}`);
}

/**
 * The parameters the provider sent to the callback page in `popup` (see OAuthCallbackPage),
 * or popup_closed once the popup is closed without an answer.
 */
export function waitForCallback(popup: Window, provider: string): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    const channel = typeof BroadcastChannel !== "undefined" ? new BroadcastChannel(CALLBACK_CHANNEL) : null;

    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      clearInterval(closedCheck);
      clearTimeout(graceTimer);
      window.removeEventListener("message", onWindowMessage);
      channel?.close();
      finish();
    };
    const accept = (data: unknown) => {
      if (!isCallbackMessage(data) || data.provider !== provider) return;
      settle(() => resolve(data.params));
      if (!popup.closed) popup.close();
    };
    const onWindowMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return; // only our own callback page
      if (event.source && event.source !== popup) return;
      accept(event.data);
    };

    window.addEventListener("message", onWindowMessage);
    if (channel) channel.onmessage = (event) => accept(event.data);
    const closedCheck = setInterval(() => {
      if (!popup.closed || graceTimer) return;
      graceTimer = setTimeout(
        () => settle(() => reject(new SignInFlowError("popup_closed", provider))),
        CLOSED_GRACE_MS,
      );
    }, POPUP_CLOSED_CHECK_MS);
  });
}
