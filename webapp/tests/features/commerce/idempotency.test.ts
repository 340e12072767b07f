// @vitest-environment node
import { describe, expect, it } from "vitest";
import { ATTEMPT_LIFETIME_MS, attemptFor, currentAttempt, finishAttempt } from "@/features/commerce/lib/idempotency";

/** A storage of its own and a clock the test moves. */
function setup() {
  const items = new Map<string, string>();
  const storage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
  let time = 1_000_000;
  let next = 0;
  const options = { storage, now: () => time, newKey: () => `key-${++next}` };
  return { options, items, advance: (ms: number) => (time += ms) };
}

describe("the Idempotency-Key of a purchase attempt", () => {
  it("stays the same for the attempt: a double click, a retry, a reload", () => {
    const { options } = setup();
    const first = currentAttempt("ppv:e1:p1", options).key;
    expect(currentAttempt("ppv:e1:p1", options).key).toBe(first);
    expect(attemptFor("ppv:e1:p1", "stored", undefined, options).key).toBe(first);
    expect(attemptFor("ppv:e1:p1", "stored", undefined, options).key).toBe(first);
  });

  it("survives a reload: it lives in the storage, not in the page", () => {
    const { options } = setup();
    const key = currentAttempt("subscription:p2", options).key;
    const reloaded = { ...options, newKey: () => "after-reload" };
    expect(currentAttempt("subscription:p2", reloaded).key).toBe(key);
  });

  it("lives ATTEMPT_LIFETIME_MS, then a new attempt gets a new key", () => {
    const { options, advance } = setup();
    const key = currentAttempt("ppv:e1:p1", options).key;
    advance(ATTEMPT_LIFETIME_MS - 1);
    expect(currentAttempt("ppv:e1:p1", options).key).toBe(key);
    advance(1);
    const renewed = currentAttempt("ppv:e1:p1", options).key;
    expect(renewed).not.toBe(key);
    // The new key lives its own lifetime from now.
    advance(ATTEMPT_LIFETIME_MS - 1);
    expect(currentAttempt("ppv:e1:p1", options).key).toBe(renewed);
  });

  it("ends with the payment's outcome", () => {
    const { options, items } = setup();
    const key = currentAttempt("ppv:e1:p1", options).key;
    finishAttempt("ppv:e1:p1", options);
    expect(items.size).toBe(0);
    expect(currentAttempt("ppv:e1:p1", options).key).not.toBe(key);
  });

  it("is one per purchase: another product or event has its own", () => {
    const { options } = setup();
    const a = currentAttempt("ppv:e1:p1", options).key;
    const b = currentAttempt("ppv:e2:p1", options).key;
    const c = currentAttempt("subscription:p1", options).key;
    expect(new Set([a, b, c]).size).toBe(3);
  });

  it("keeps the card token with the key, and starts over for another card", () => {
    const { options } = setup();
    const withToken = attemptFor("ppv:e1:p1", "4242/12/2029/once", "tok_1", options);
    expect(attemptFor("ppv:e1:p1", "4242/12/2029/once", undefined, options)).toMatchObject({
      key: withToken.key,
      token: "tok_1",
    });
    const other = attemptFor("ppv:e1:p1", "0002/12/2029/once", undefined, options);
    expect(other.key).not.toBe(withToken.key);
    expect(other.token).toBeUndefined();
  });

  it("ignores what it cannot read, and a clock moved backwards", () => {
    const { options, items, advance } = setup();
    items.set("touchline.payment-attempt.ppv:e1:p1", "{not json");
    const key = currentAttempt("ppv:e1:p1", options).key;
    expect(key).toBe("key-1");
    advance(-1000);
    expect(currentAttempt("ppv:e1:p1", options).key).not.toBe(key);
  });
});
