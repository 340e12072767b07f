import { splitLocalePath } from "@/i18n/locales";

/**
 * The `redirect` return path of a purchase (the event page, the subscription page), only when it
 * is a path of this site: a crafted link cannot send the buyer elsewhere. Without locale prefix.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.includes("\\")) return null;
  try {
    const url = new URL(raw, window.location.origin);
    if (url.origin !== window.location.origin) return null;
    return splitLocalePath(url.pathname).path + url.search + url.hash;
  } catch {
    return null;
  }
}

export interface PaymentRef {
  record: "purchase" | "contract";
  id?: string;
  eventId?: string | null;
  productId?: string;
  redirect?: string | null;
  reason?: string;
}

/** /payment/{processing|success|failure}?record=&id=&event=&product=&reason=&redirect= */
export function paymentPath(page: "processing" | "success" | "failure", ref: PaymentRef): string {
  const query = new URLSearchParams({ record: ref.record });
  if (ref.id) query.set("id", ref.id);
  if (ref.eventId) query.set("event", ref.eventId);
  if (ref.productId) query.set("product", ref.productId);
  if (ref.reason) query.set("reason", ref.reason);
  const back = safeReturnPath(ref.redirect);
  if (back) query.set("redirect", back);
  return `/payment/${page}?${query.toString()}`;
}

export function readPaymentRef(search: URLSearchParams): PaymentRef {
  return {
    record: search.get("record") === "contract" ? "contract" : "purchase",
    id: search.get("id") ?? undefined,
    eventId: search.get("event"),
    productId: search.get("product") ?? undefined,
    reason: search.get("reason") ?? undefined,
    redirect: safeReturnPath(search.get("redirect")),
  };
}

/** Back to what was bought: the given return path, else the event (ppv) or the contract. */
export function boughtPath(ref: PaymentRef): string {
  if (ref.redirect) return ref.redirect;
  if (ref.record === "purchase" && ref.eventId) return `/events/${ref.eventId}`;
  if (ref.record === "contract" && ref.id) return `/account/subscription/${ref.id}`;
  return ref.record === "contract" ? "/account/subscription" : "/account/ppv";
}
