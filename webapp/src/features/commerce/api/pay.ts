import { api, unwrap, isApiError } from "@/api/client";
import { queryClient } from "@/lib/queryClient";
import { tellOtherTabs } from "@/realtime/purchases";
import { attemptFor, finishAttempt } from "../lib/idempotency";
import { tokenizeCard, type CardDetails } from "./cards";

/** What is being bought: an event's pay-per-view, or a subscription (svod, cvod, bundle). */
export type Order = { kind: "ppv"; eventId: string; productId: string } | { kind: "subscription"; productId: string };
/** How: the stored card, or a new card (kept as the stored card when `save`). */
export type Payment = { kind: "stored" } | { kind: "card"; card: CardDetails; save: boolean };

export interface PayResult {
  /** What was created: a purchase (ppv) or a contract (subscription). */
  record: "purchase" | "contract";
  id: string;
  processing: boolean;
}

/** Failures after which trying again must not reuse the attempt (the request had its outcome). */
const FINAL_CODES = new Set([
  "card_declined",
  "insufficient_funds",
  "card_expired",
  "expired_card",
  "invalid_card",
  "invalid_card_token",
  "already_purchased",
  "already_subscribed",
  "purchase_in_progress",
  "no_stored_card",
  "product_not_available",
  "product_not_found",
  "idempotency_key_reused",
]);

export const attemptScope = (order: Order) =>
  order.kind === "ppv" ? `ppv:${order.eventId}:${order.productId}` : `subscription:${order.productId}`;

const running = new Map<string, Promise<PayResult>>();

/**
 * Pays for `order` once: the attempt's Idempotency-Key goes with the call (and with every retry of
 * it, even after a reload), a second call while one runs joins it, and card details go only to
 * tokenize_card. Throws the ApiError of a refused payment (402: `card_declined`, ...).
 */
export function pay(order: Order, payment: Payment): Promise<PayResult> {
  const scope = attemptScope(order);
  const pending = running.get(scope);
  if (pending) return pending;
  const call = payOnce(scope, order, payment).finally(() => running.delete(scope));
  running.set(scope, call);
  return call;
}

async function payOnce(scope: string, order: Order, payment: Payment): Promise<PayResult> {
  let token: string | undefined;
  let key: string;
  if (payment.kind === "stored") {
    key = attemptFor(scope, "stored").key;
  } else {
    const { card, save } = payment;
    const source = `${card.number.slice(-4)}/${card.expMonth}/${card.expYear}/${save ? "save" : "once"}`;
    const attempt = attemptFor(scope, source);
    token = attempt.token ?? (await tokenizeCard(card)).token;
    key = attemptFor(scope, source, token).key;
  }
  const params = { header: { "Idempotency-Key": key } };
  try {
    const result = await send(order, payment, token, params);
    finishAttempt(scope);
    // What the viewer holds changed (or will): the catalogue's answers and the lists are stale,
    // here and in the viewer's other tabs (the server announces only what settles later).
    void queryClient.invalidateQueries();
    if (!result.processing)
      tellOtherTabs({
        purchaseId: result.id,
        status: "success",
        productId: order.productId,
        ...(order.kind === "ppv" ? { eventId: order.eventId } : {}),
      });
    return result;
  } catch (error) {
    if (isApiError(error) && error.code && FINAL_CODES.has(error.code)) finishAttempt(scope);
    throw error;
  }
}

async function send(
  order: Order,
  payment: Payment,
  token: string | undefined,
  params: { header: { "Idempotency-Key": string } },
): Promise<PayResult> {
  const save = payment.kind === "card" && payment.save;
  if (order.kind === "ppv") {
    const ids = { event_id: order.eventId, product_id: order.productId };
    const answer = token
      ? await unwrap(api.POST("/commerce/ppv/purchase", { params, body: { ...ids, card: { token }, save_card: save } }))
      : await unwrap(api.POST("/commerce/ppv/purchase_by_stored_cc", { params, body: ids }));
    const purchase = answer.content;
    return { record: "purchase", id: purchase._id, processing: purchase.status !== "success" };
  }
  const answer = token
    ? await unwrap(
        api.POST("/commerce/subscription_checkout", {
          params,
          body: { subscription_id: order.productId, card: { token }, save_card: save },
        }),
      )
    : await unwrap(
        api.POST("/commerce/subscribe_by_stored_cc", { params, body: { subscription_id: order.productId } }),
      );
  const contract = answer.content;
  return { record: "contract", id: contract.id, processing: contract.paymentStatus !== "success" };
}
