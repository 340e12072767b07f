import { afterEach, describe, expect, it, vi } from "vitest";
import type { UserPurchaseStatusPayload } from "@/realtime/events.gen";
import { onPurchaseStatus, parseTabMessage, TABS_CHANNEL, tellOtherTabs } from "@/realtime/purchases";

const PAID: UserPurchaseStatusPayload = {
  purchaseId: "65a1f0c2e4b0a1b2c3d4e5c3",
  status: "success",
  productId: "65a1f0c2e4b0a1b2c3d4e5b2",
  eventId: "65a1f0c2e4b0a1b2c3d4e5f6",
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("a purchase told to the other tabs", () => {
  it("reaches a listener of another tab (another BroadcastChannel of the same name)", async () => {
    const heard: UserPurchaseStatusPayload[] = [];
    const stop = onPurchaseStatus((status) => heard.push(status));
    tellOtherTabs(PAID);
    await vi.waitFor(() => expect(heard).toEqual([PAID]));
    stop();
  });

  it("is no longer heard once the listener stopped", async () => {
    const heard: UserPurchaseStatusPayload[] = [];
    const stop = onPurchaseStatus((status) => heard.push(status));
    stop();
    const witness: UserPurchaseStatusPayload[] = [];
    const stopWitness = onPurchaseStatus((status) => witness.push(status));
    tellOtherTabs(PAID);
    await vi.waitFor(() => expect(witness).toHaveLength(1));
    expect(heard).toEqual([]);
    stopWitness();
  });

  it("goes through the storage event where there is no BroadcastChannel", () => {
    vi.stubGlobal("BroadcastChannel", undefined);
    const written: string[] = [];
    const setItem = vi.spyOn(Storage.prototype, "setItem").mockImplementation((key, value) => {
      written.push(`${key}=${value}`);
    });
    tellOtherTabs(PAID);
    expect(written).toHaveLength(1);
    expect(written[0].startsWith(`${TABS_CHANNEL}=`)).toBe(true);
    setItem.mockRestore();

    const heard: UserPurchaseStatusPayload[] = [];
    const stop = onPurchaseStatus((status) => heard.push(status));
    const newValue = written[0].slice(TABS_CHANNEL.length + 1);
    window.dispatchEvent(new StorageEvent("storage", { key: TABS_CHANNEL, newValue }));
    window.dispatchEvent(new StorageEvent("storage", { key: "something-else", newValue }));
    window.dispatchEvent(new StorageEvent("storage", { key: TABS_CHANNEL, newValue: null }));
    expect(heard).toEqual([PAID]);
    stop();
  });
});

describe("a message from another tab", () => {
  it("is taken when it has the shape of user-purchase-status", () => {
    expect(parseTabMessage(PAID)).toEqual(PAID);
    expect(parseTabMessage(JSON.stringify({ ...PAID, at: 1 }))).toEqual(PAID);
    const { eventId: _eventId, ...withoutEvent } = PAID;
    expect(parseTabMessage(withoutEvent)).toEqual(withoutEvent);
  });

  it("is dropped when it has not (anything on the origin may write the storage)", () => {
    expect(parseTabMessage("not json")).toBeNull();
    expect(parseTabMessage(null)).toBeNull();
    expect(parseTabMessage({ ...PAID, status: "paid" })).toBeNull();
    expect(parseTabMessage({ ...PAID, purchaseId: 7 })).toBeNull();
    expect(parseTabMessage({ ...PAID, eventId: {} })).toBeNull();
  });
});
