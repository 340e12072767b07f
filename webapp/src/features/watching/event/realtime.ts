import { NO_TITLE, type CatalogEvent, type EventMapOptions } from "@/entities/event";
import type { UpdateEventPayload, UserPurchaseStatusPayload } from "@/realtime/events.gen";

/**
 * What the event page keeps beside the event itself (which lives in the query cache), and how the
 * realtime messages of spec §4 change it. Pure: the hook in useEventRealtime.ts wires it to the
 * socket and the cache.
 */
export interface EventPageState {
  /** Kick-off time has passed and the event is not live yet: the page polls for it. */
  startingSoon: boolean;
  /** The new stream announced by event-url-change could not be loaded; null when none. */
  streamError: unknown;
  /** Bumped to start the player afresh (a reset it would not notice from the stream alone). */
  playerResets: number;
  /** Where the viewer's latest purchase for this event stands, to tell them. */
  purchase: PurchaseNotice | null;
}

export type PurchaseNotice = "processing" | "completed" | "failed";

export type EventPageAction =
  | { type: "kickoff-passed" }
  | { type: "event-url-change" }
  | { type: "stream-reloaded"; sameStream: boolean }
  | { type: "stream-failed"; error: unknown }
  | { type: "purchase-status"; status: UserPurchaseStatusPayload["status"] }
  | { type: "purchase-notice-dismissed" };

export const initialEventPageState: EventPageState = {
  startingSoon: false,
  streamError: null,
  playerResets: 0,
  purchase: null,
};

const PURCHASE_NOTICES: Record<UserPurchaseStatusPayload["status"], PurchaseNotice> = {
  init: "processing",
  "in progress": "processing",
  success: "completed",
  error: "failed",
};

export function eventPageReducer(state: EventPageState, action: EventPageAction): EventPageState {
  switch (action.type) {
    case "kickoff-passed":
      return state.startingSoon ? state : { ...state, startingSoon: true };
    case "event-url-change":
      // Spec §4: the starting-soon flag and the stream error are cleared; the player is reset
      // once the viewer's own (signed) address of the new stream has arrived.
      return { ...state, startingSoon: false, streamError: null };
    case "stream-reloaded":
      // A new stream resets the player by itself; the same stream again needs a fresh start.
      return { ...state, streamError: null, playerResets: state.playerResets + (action.sameStream ? 1 : 0) };
    case "stream-failed":
      return { ...state, streamError: action.error };
    case "purchase-status":
      return { ...state, purchase: PURCHASE_NOTICES[action.status] };
    case "purchase-notice-dismissed":
      return state.purchase === null ? state : { ...state, purchase: null };
  }
}

/**
 * The event as event-url-change leaves it until it is reloaded: live. The message carries the
 * stored (unsigned) address, which plays for nobody: the stream itself comes with the reload.
 */
export function withEventUrlChange(event: CatalogEvent): CatalogEvent {
  if (event.status === "live" && event.isLive) return event;
  return { ...event, status: "live", isLive: true };
}

function parseDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * The event with the fields an update-event message changed, shown at once while the event is
 * reloaded (the reload brings what the message cannot: availability and the signed stream).
 */
export function applyUpdateEvent(
  event: CatalogEvent,
  payload: UpdateEventPayload,
  options: Pick<EventMapOptions, "realKickoff">,
): CatalogEvent {
  const next: CatalogEvent = { ...event };
  if (payload.title !== undefined) next.title = payload.title || NO_TITLE;
  if (payload.description !== undefined) next.description = payload.description || null;
  if (payload.status !== undefined) {
    next.status = payload.status;
    next.isLive = payload.status === "live";
    next.isChannel = payload.status === "channel" || event.eventType === "channel";
  }
  const kickoff = options.realKickoff ? parseDate(payload.gameStartDate) : null;
  const scheduled = parseDate(payload.event_date);
  const startsAt = kickoff ?? scheduled;
  if (startsAt) next.startsAt = startsAt;
  if (payload.endDate !== undefined) next.endsAt = parseDate(payload.endDate);
  // null: the feed is back.
  if (payload.liveFeed !== undefined) next.liveFeed = payload.liveFeed;
  if (payload.sportType !== undefined) next.sportType = payload.sportType ?? null;
  if (payload.commerce_type !== undefined) next.commerceType = payload.commerce_type;
  if (payload.content?.PosterH !== undefined) next.posterUrl = payload.content.PosterH ?? null;
  if (payload.content?.EPG !== undefined) next.epgUrl = payload.content.EPG ?? null;
  return next;
}

/** Whether a purchase announced on the user room is for this event: bought for it, or a product that unlocks it. */
export function purchaseConcerns(
  payload: Pick<UserPurchaseStatusPayload, "eventId" | "productId">,
  eventId: string,
  productIds: readonly string[],
): boolean {
  return payload.eventId === eventId || productIds.includes(payload.productId);
}

/**
 * After a purchase that unlocks the event, the waits before each new look at it while it still
 * reads locked: the server may answer from what it cached of the viewer's holdings a moment
 * before (about 2 s), and a settlement may land just after the message that announced it.
 */
export const UNLOCK_RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 3_000, 5_000, 8_000];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Reloads with `reload` until `unlocked()` holds: at once, then after each of `delays`. Stops
 * when `cancelled()` (the page went, a newer purchase took over). Resolves with whether it unlocked.
 */
export async function reloadUntilUnlocked(
  reload: () => Promise<unknown>,
  unlocked: () => boolean,
  {
    delays = UNLOCK_RETRY_DELAYS_MS,
    wait = sleep,
    cancelled = () => false,
  }: { delays?: readonly number[]; wait?: (ms: number) => Promise<void>; cancelled?: () => boolean } = {},
): Promise<boolean> {
  for (let attempt = 0; ; attempt += 1) {
    if (cancelled()) return false;
    await reload().catch(() => undefined);
    if (unlocked()) return true;
    if (attempt >= delays.length || cancelled()) return false;
    await wait(delays[attempt]);
  }
}
