import { useEffect, useEffectEvent } from "react";
import type { UserPurchaseStatusPayload } from "./events.gen";
import { onSocketEvent } from "./socket";

/*
 * Where the viewer's purchases stand, wherever they are decided: the user room's
 * `user-purchase-status` (every socket of the user hears it), and the other tabs of this browser.
 * The server announces what it settles later (a payment that needed an action, renewals); a
 * payment that succeeds at once is only answered to the tab that paid, which tells the others
 * here, so that an event page open in a second tab unlocks too.
 */

type Listener = (status: UserPurchaseStatusPayload) => void;

/** The channel between this browser's tabs (BroadcastChannel, else the storage event). */
export const TABS_CHANNEL = "touchline.purchase-status";

const STATUSES: readonly UserPurchaseStatusPayload["status"][] = ["init", "in progress", "success", "error"];

/** A message from another tab, checked: it comes from storage anyone on the origin can write. */
export function parseTabMessage(data: unknown): UserPurchaseStatusPayload | null {
  const value = typeof data === "string" ? safeParse(data) : data;
  if (!value || typeof value !== "object") return null;
  const { purchaseId, status, productId, eventId } = value as Record<string, unknown>;
  if (typeof purchaseId !== "string" || typeof productId !== "string") return null;
  if (!STATUSES.includes(status as UserPurchaseStatusPayload["status"])) return null;
  if (eventId !== undefined && typeof eventId !== "string") return null;
  return {
    purchaseId,
    status: status as UserPurchaseStatusPayload["status"],
    productId,
    ...(eventId ? { eventId } : {}),
  };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function channel(): BroadcastChannel | null {
  return typeof BroadcastChannel === "function" ? new BroadcastChannel(TABS_CHANNEL) : null;
}

/** Tells this browser's other tabs where a purchase made in this one stands. */
export function tellOtherTabs(status: UserPurchaseStatusPayload): void {
  const message = parseTabMessage(status);
  if (!message) return;
  const broadcast = channel();
  if (broadcast) {
    broadcast.postMessage(message);
    broadcast.close();
    return;
  }
  try {
    // The storage event reaches the other tabs only: written and taken back at once.
    localStorage.setItem(TABS_CHANNEL, JSON.stringify({ ...message, at: Date.now() }));
    localStorage.removeItem(TABS_CHANNEL);
  } catch {
    // storage disabled: the other tabs learn it when they next load the event
  }
}

/** Listens to the viewer's purchase statuses, from the socket and from the other tabs. */
export function onPurchaseStatus(listener: Listener): () => void {
  const stopSocket = onSocketEvent("user-purchase-status", listener);
  const broadcast = channel();
  const onMessage = (event: MessageEvent) => {
    const message = parseTabMessage(event.data);
    if (message) listener(message);
  };
  const onStorage = (event: StorageEvent) => {
    if (event.key !== TABS_CHANNEL || !event.newValue) return;
    const message = parseTabMessage(event.newValue);
    if (message) listener(message);
  };
  if (broadcast) broadcast.addEventListener("message", onMessage);
  else window.addEventListener("storage", onStorage);
  return () => {
    stopSocket();
    if (broadcast) {
      broadcast.removeEventListener("message", onMessage);
      broadcast.close();
    } else window.removeEventListener("storage", onStorage);
  };
}

/** `onPurchaseStatus` while mounted; the handler may change between renders. */
export function usePurchaseStatus(handler: Listener): void {
  const handle = useEffectEvent((status: UserPurchaseStatusPayload) => handler(status));
  useEffect(() => onPurchaseStatus((status) => handle(status)), []);
}
