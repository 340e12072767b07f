/**
 * How the popup's callback page hands the provider's answer to the page that opened it: a
 * postMessage to the opener restricted to this origin, and the same message on a
 * BroadcastChannel for browsers that cut `window.opener` (cross-origin-opener policies).
 * Only the opener that started the flow knows the `state`, so a stray message is ignored.
 */
export const CALLBACK_MESSAGE_TYPE = "touchline:oauth2-callback";
export const CALLBACK_CHANNEL = "touchline-oauth2-callback";

export interface CallbackMessage {
  type: typeof CALLBACK_MESSAGE_TYPE;
  provider: string;
  /** The query and fragment parameters the provider sent back (code, state, error, …). */
  params: Record<string, string>;
}

export function isCallbackMessage(data: unknown): data is CallbackMessage {
  if (!data || typeof data !== "object") return false;
  const message = data as Partial<CallbackMessage>;
  return (
    message.type === CALLBACK_MESSAGE_TYPE &&
    typeof message.provider === "string" &&
    !!message.params &&
    typeof message.params === "object"
  );
}

/** The provider's answer from the callback URL: query parameters, then fragment ones. */
export function callbackParams(location: Pick<Location, "search" | "hash">): Record<string, string> {
  const params: Record<string, string> = {};
  const add = (source: string) => new URLSearchParams(source).forEach((value, key) => (params[key] = value));
  add(location.search);
  add(location.hash.replace(/^#/, ""));
  return params;
}

/** Sends the answer to the opener; true when somebody could have received it. */
export function sendToOpener(message: CallbackMessage): boolean {
  let delivered = false;
  const opener = window.opener as Window | null;
  if (opener && opener !== window) {
    try {
      opener.postMessage(message, window.location.origin);
      delivered = true;
    } catch {
      // The opener navigated elsewhere: the channel below may still reach it.
    }
  }
  if (typeof BroadcastChannel !== "undefined") {
    const channel = new BroadcastChannel(CALLBACK_CHANNEL);
    channel.postMessage(message);
    channel.close();
    delivered = true;
  }
  return delivered;
}
