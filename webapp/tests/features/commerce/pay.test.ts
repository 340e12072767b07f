import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { pay, type Order, type Payment } from "@/features/commerce/api/pay";
import { onPurchaseStatus, tellOtherTabs } from "@/realtime/purchases";
import type { UserPurchaseStatusPayload } from "@/realtime/events.gen";

interface Call {
  path: string;
  key: string | null;
  body: Record<string, unknown>;
}

const ORDER: Order = { kind: "ppv", eventId: "e1", productId: "p1" };
const CARD: Payment = {
  kind: "card",
  card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" },
  save: false,
};
const purchase = (status: string) => ({
  content: { _id: "buy1", status, event_id: "e1" },
  error: false,
  message: "",
});
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** A server whose answers to the purchase call the test queues; every call is recorded. */
function server(answers: (() => Response | Promise<Response>)[]) {
  const calls: Call[] = [];
  let tokens = 0;
  vi.stubGlobal("fetch", async (request: Request) => {
    const path = new URL(request.url).pathname.replace(/^\/api/, "");
    const body = request.method === "POST" ? ((await request.json()) as Record<string, unknown>) : {};
    calls.push({ path, key: request.headers.get("Idempotency-Key"), body });
    if (path === "/commerce/card/tokenize") return json({ content: { token: `tok_${++tokens}`, last4: "4242" } });
    const answer = answers.shift();
    if (!answer) throw new Error(`unexpected call ${path}`);
    return answer();
  });
  return calls;
}

beforeEach(() => sessionStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe("paying", () => {
  it("sends card details only to tokenize_card, and pays with the token and an Idempotency-Key", async () => {
    const calls = server([() => json(purchase("success"))]);
    await expect(pay(ORDER, CARD)).resolves.toEqual({ record: "purchase", id: "buy1", processing: false });
    expect(calls.map((call) => call.path)).toEqual(["/commerce/card/tokenize", "/commerce/ppv/purchase"]);
    expect(calls[0].body).toMatchObject({ number: "4242424242424242", cvc: "123" });
    expect(calls[0].key).toBeNull();
    const paid = calls[1];
    expect(JSON.stringify(paid.body)).not.toContain("4242424242424242");
    expect(paid.body).toEqual({ event_id: "e1", product_id: "p1", card: { token: "tok_1" }, save_card: false });
    expect(paid.key).toMatch(/^[A-Za-z0-9_.:-]{8,}$/);
  });

  it("retries after a network error with the same key and token, so nothing is charged twice", async () => {
    const calls = server([() => Promise.reject(new TypeError("Failed to fetch")), () => json(purchase("success"))]);
    await expect(pay(ORDER, CARD)).rejects.toMatchObject({ code: "network_error" });
    await pay(ORDER, CARD);
    const paid = calls.filter((call) => call.path === "/commerce/ppv/purchase");
    expect(paid).toHaveLength(2);
    expect(paid[1].key).toBe(paid[0].key);
    expect(paid[1].body).toEqual(paid[0].body);
    expect(calls.filter((call) => call.path === "/commerce/card/tokenize")).toHaveLength(1);
  });

  it("makes one call for a double click", async () => {
    const calls = server([() => json(purchase("success"))]);
    const [first, second] = await Promise.all([pay(ORDER, CARD), pay(ORDER, CARD)]);
    expect(second).toEqual(first);
    expect(calls.filter((call) => call.path === "/commerce/ppv/purchase")).toHaveLength(1);
  });

  it("starts a new attempt once the payment has an outcome", async () => {
    const calls = server([
      () => json({ error: true, message: "Your card was declined", messageErrorCode: "card_declined" }, 402),
      () => json(purchase("in progress"), 202),
    ]);
    await expect(pay(ORDER, CARD)).rejects.toMatchObject({ code: "card_declined" });
    await expect(pay(ORDER, { kind: "stored" })).resolves.toMatchObject({ processing: true });
    const [declined, stored] = calls.filter((call) => call.path.startsWith("/commerce/ppv/purchase"));
    expect(stored.path).toBe("/commerce/ppv/purchase_by_stored_cc");
    expect(stored.body).toEqual({ event_id: "e1", product_id: "p1" });
    expect(stored.key).not.toBe(declined.key);
  });
});

describe("the viewer's other tabs", () => {
  it("hear of a purchase that succeeded at once (the server announces only later settlements)", async () => {
    const heard: UserPurchaseStatusPayload[] = [];
    const stop = onPurchaseStatus((status) => heard.push(status));
    server([() => json(purchase("success"))]);
    await pay(ORDER, CARD);
    await vi.waitFor(() =>
      expect(heard).toEqual([{ purchaseId: "buy1", status: "success", productId: "p1", eventId: "e1" }]),
    );
    stop();
  });

  it("hear nothing of a payment still processing (its settlement is announced on the socket)", async () => {
    const heard: UserPurchaseStatusPayload[] = [];
    const witness: UserPurchaseStatusPayload[] = [];
    const stop = onPurchaseStatus((status) => heard.push(status));
    server([() => json(purchase("in progress"), 202)]);
    await expect(pay(ORDER, CARD)).resolves.toMatchObject({ processing: true });
    // A message sent after it arrives after anything pay() sent: none came before.
    const stopWitness = onPurchaseStatus((status) => witness.push(status));
    tellOtherTabs({ purchaseId: "other", status: "error", productId: "p9" });
    await vi.waitFor(() => expect(witness).toHaveLength(1));
    expect(heard.map((status) => status.purchaseId)).toEqual(["other"]);
    stop();
    stopWitness();
  });
});
