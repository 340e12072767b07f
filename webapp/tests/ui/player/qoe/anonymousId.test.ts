import { describe, expect, it } from "vitest";
import { ANONYMOUS_ID_KEY } from "@/lib/analytics/collector";
import { ANALYTICS_ID_KEY, QOE_ID_KEY, anonymousIds, randomId } from "@/ui/player/qoe/anonymousId";

describe("the browser's anonymous id in QoE batches", () => {
  it("reads the analytics collector's own key", () => {
    expect(ANALYTICS_ID_KEY).toBe(ANONYMOUS_ID_KEY);
  });

  it("is the analytics id when the browser has one, so one browser is one viewer in both", () => {
    localStorage.setItem(ANONYMOUS_ID_KEY, "0a1b2c3d4e5f60718293a4b5");
    expect(anonymousIds()()).toBe("0a1b2c3d4e5f60718293a4b5");
    expect(localStorage.getItem(QOE_ID_KEY)).toBeNull();
  });

  it("else a random id of its own, kept in local storage for the next pages", () => {
    const first = anonymousIds()();
    expect(first).toMatch(/^[0-9a-f]{24}$/);
    expect(localStorage.getItem(QOE_ID_KEY)).toBe(first);
    expect(anonymousIds()()).toBe(first);
  });

  it("follows the analytics id once there is one (or a new one after sign-out)", () => {
    const read = anonymousIds();
    const own = read();
    localStorage.setItem(ANONYMOUS_ID_KEY, "analytics-id-1");
    expect(read()).toBe("analytics-id-1");
    localStorage.setItem(ANONYMOUS_ID_KEY, "not valid!");
    expect(read()).toBe(own);
  });

  it("lasts the page's lifetime where storage fails", () => {
    const broken = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("SecurityError");
      },
    };
    const read = anonymousIds(broken, () => "page-only-id");
    expect(read()).toBe("page-only-id");
    expect(read()).toBe("page-only-id");
  });

  it("makes ids the contract takes", () => {
    const ids = new Set(Array.from({ length: 50 }, randomId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
  });
});
