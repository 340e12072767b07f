import { afterEach, describe, expect, it, vi } from "vitest";
import {
  markPrerollShown,
  pickMediaFile,
  prerollDue,
  PREROLLS_SHOWN_KEY,
  skipAfterOf,
  within,
  type VastMediaFile,
} from "@/ui/player/ads";

const file = (overrides: Partial<VastMediaFile>): VastMediaFile => ({
  fileURL: "https://ads.example.com/a.mp4",
  mimeType: "video/mp4",
  deliveryType: "progressive",
  width: 640,
  height: 360,
  bitrate: 400,
  ...overrides,
});
const mp4Only = (type: string) => type === "video/mp4";

describe("choosing the ad's media file", () => {
  it("takes a progressive file the browser plays, the nearest to the player's width", () => {
    const files = [
      file({ fileURL: "https://ads.example.com/1080.mp4", width: 1920, height: 1080 }),
      file({ fileURL: "https://ads.example.com/360.mp4", width: 640 }),
      file({ fileURL: "https://ads.example.com/ad.webm", mimeType: "video/webm", width: 640 }),
    ];
    expect(pickMediaFile(files, mp4Only)?.fileURL).toBe("https://ads.example.com/360.mp4");
  });

  it("prefers the lower bitrate between files of one size", () => {
    const files = [
      file({ fileURL: "https://a/hi.mp4", bitrate: 900 }),
      file({ fileURL: "https://a/lo.mp4", bitrate: 300 }),
    ];
    expect(pickMediaFile(files, mp4Only)?.fileURL).toBe("https://a/lo.mp4");
  });

  it("finds none when nothing can play (streaming delivery, unknown types, no address)", () => {
    expect(pickMediaFile([file({ deliveryType: "streaming" })], mp4Only)).toBeNull();
    expect(pickMediaFile([file({ mimeType: "application/x-shockwave-flash" })], mp4Only)).toBeNull();
    expect(pickMediaFile([file({ fileURL: null })], mp4Only)).toBeNull();
    expect(pickMediaFile([], mp4Only)).toBeNull();
  });
});

describe("skipping", () => {
  it("is allowed after the VAST's skipoffset, in seconds", () => {
    expect(skipAfterOf(3)).toBe(3);
    expect(skipAfterOf(0)).toBe(0);
  });

  it("is not offered without a skipoffset", () => {
    expect(skipAfterOf(undefined)).toBeNull();
    expect(skipAfterOf(null)).toBeNull();
    expect(skipAfterOf(-1)).toBeNull();
  });
});

describe("the ad's deadline", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("settles with the answer when it comes in time", async () => {
    await expect(within(Promise.resolve("ad"), 2_000, null)).resolves.toBe("ad");
  });

  it("settles with no ad when the answer fails", async () => {
    await expect(within(Promise.reject(new Error("broken VAST")), 2_000, null)).resolves.toBeNull();
  });

  it("settles with no ad when the answer is late", async () => {
    vi.useFakeTimers();
    const late = new Promise<string>((resolve) => setTimeout(() => resolve("ad"), 10_000));
    const result = within(late, 2_000, null);
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(result).resolves.toBeNull();
  });
});

/** A Storage of its own (the methods the pre-roll record uses). */
function memoryStore(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe("a pre-roll once per event in a session", () => {
  it("is due for an event until it has been shown, then no more", () => {
    const store = memoryStore();
    expect(prerollDue("event:a", store)).toBe(true);
    markPrerollShown("event:a", store);
    expect(prerollDue("event:a", store)).toBe(false);
    expect(prerollDue("event:b", store)).toBe(true);
  });

  it("is kept in the tab's session storage by default", () => {
    sessionStorage.clear();
    markPrerollShown("event:c");
    expect(prerollDue("event:c")).toBe(false);
    expect(JSON.parse(sessionStorage.getItem(PREROLLS_SHOWN_KEY) ?? "[]")).toEqual(["event:c"]);
    sessionStorage.clear();
    expect(prerollDue("event:c")).toBe(true);
  });

  it("treats an unreadable record as nothing shown, and starts it afresh", () => {
    const store = memoryStore({ [PREROLLS_SHOWN_KEY]: "{not json" });
    expect(prerollDue("event:a", store)).toBe(true);
    markPrerollShown("event:a", store);
    expect(prerollDue("event:a", store)).toBe(false);
  });

  it("shows the ad when there is no storage at all (disabled), and does not fail", () => {
    expect(prerollDue("event:a", null)).toBe(true);
    expect(() => markPrerollShown("event:a", null)).not.toThrow();
  });

  it("keeps the latest 200 events only", () => {
    const store = memoryStore();
    for (let index = 0; index < 205; index += 1) markPrerollShown(`event:${index}`, store);
    expect(prerollDue("event:0", store)).toBe(true);
    expect(prerollDue("event:204", store)).toBe(false);
    expect(JSON.parse(store.getItem(PREROLLS_SHOWN_KEY)!)).toHaveLength(200);
  });
});
