import type { Product } from "@/entities/product";

/**
 * Where each way of watching a locked event leads (spec §2; the purchase pages themselves come
 * with the next issue). Paths are without locale prefix; every target carries `redirect`, the
 * event page to come back to once the purchase is done.
 *
 * - a pay-per-view of this event, or a bundle containing it: /account/ppv/{eventId}?product={productId}
 * - a subscription (svod) or channel subscription (cvod): /account/subscription/buy/{productId}
 * - an access code: /auth/sign-up/subscription/code
 *
 * Anonymous viewers sign in first: /auth/login/?redirect={target}.
 */
export type PaywallChoice = "ppv" | "subscription" | "bundle";

export function choiceOf(product: Pick<Product, "type">): PaywallChoice {
  if (product.type === "ppv") return "ppv";
  if (product.type === "bundle") return "bundle";
  return "subscription";
}

const withRedirect = (path: string, returnTo: string) =>
  `${path}${path.includes("?") ? "&" : "?"}redirect=${encodeURIComponent(returnTo)}`;

export function purchasePath(product: Pick<Product, "id" | "type">, eventId: string, returnTo: string): string {
  const choice = choiceOf(product);
  if (choice === "subscription")
    return withRedirect(`/account/subscription/buy/${encodeURIComponent(product.id)}`, returnTo);
  return withRedirect(
    `/account/ppv/${encodeURIComponent(eventId)}?product=${encodeURIComponent(product.id)}`,
    returnTo,
  );
}

export function redeemCodePath(returnTo: string): string {
  return withRedirect("/auth/sign-up/subscription/code", returnTo);
}

/** Signed-in viewers go straight to `target`; anonymous ones sign in first and come back to it. */
export function forViewer(target: string, signedIn: boolean): string {
  return signedIn ? target : `/auth/login/?redirect=${encodeURIComponent(target)}`;
}

/**
 * The products to offer, best first: this event's pay-per-view, then bundles with it, then
 * subscriptions (cheapest first within each). Products the viewer already holds, or that are not
 * sold in their region, are left out.
 */
export function offeredProducts(products: readonly Product[], eventId: string): Product[] {
  const rank = (product: Product) =>
    product.type === "ppv" ? (product.eventId === eventId ? 0 : 3) : product.type === "bundle" ? 1 : 2;
  return products
    .filter((product) => product.availableInUserRegion && !product.active)
    .sort((a, b) => rank(a) - rank(b) || a.price - b.price);
}
