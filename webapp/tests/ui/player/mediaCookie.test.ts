import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { MediaCookieHold } from "@/ui/player/mediaCookie";

const { post } = vi.hoisted(() => ({ post: vi.fn<() => Promise<{ content: { expiresAt: string } }>>() }));
vi.mock("@/api/client", () => ({
  api: { POST: (path: string) => (path === "/user/media_cookie" ? post() : Promise.reject(new Error(path))) },
  unwrap: <T>(answer: Promise<T>) => answer,
}));

let holdMediaCookie: (token: string) => MediaCookieHold;

const MINUTE = 60_000;
/** The server's answer: a cookie that lasts as long as the access token in it, 15 minutes. */
const setFor = (ms: number) => () =>
  Promise.resolve({ content: { expiresAt: new Date(Date.now() + ms).toISOString() } });

beforeEach(async () => {
  vi.useFakeTimers();
  post.mockReset();
  post.mockImplementation(setFor(15 * MINUTE));
  vi.resetModules(); // the holders are the module's: each test starts with none
  ({ holdMediaCookie } = await import("@/ui/player/mediaCookie"));
});

afterEach(() => {
  vi.useRealTimers();
});

describe("the media cookie, for what the browser fetches of a viewer's stream by itself", () => {
  it("is set once per stream token, however many hold it, and again for a renewed token", async () => {
    const engine = holdMediaCookie("token-1");
    const previews = holdMediaCookie("token-1");
    await Promise.all([engine.ready, previews.ready]);
    expect(post).toHaveBeenCalledTimes(1);

    const renewed = holdMediaCookie("token-2");
    await renewed.ready;
    expect(post).toHaveBeenCalledTimes(2);
    const again = holdMediaCookie("token-2");
    await again.ready;
    expect(post).toHaveBeenCalledTimes(2);
  });

  it("is set again before it expires while held, and no more once every holder let it go", async () => {
    const first = holdMediaCookie("token-1");
    const second = holdMediaCookie("token-1");
    await first.ready;
    await vi.advanceTimersByTimeAsync(14 * MINUTE + 1_000); // a minute before its expiry
    expect(post).toHaveBeenCalledTimes(2);
    first.release();
    first.release(); // a second release of the same hold counts once
    await vi.advanceTimersByTimeAsync(15 * MINUTE);
    expect(post).toHaveBeenCalledTimes(3); // the other still holds it
    second.release();
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    expect(post).toHaveBeenCalledTimes(3);
  });

  it("lets its holders go on when it cannot be set, and tries again", async () => {
    post.mockRejectedValueOnce(new Error("offline"));
    const hold = holdMediaCookie("token-1");
    await expect(hold.ready).resolves.toBeUndefined(); // a refused request shows as the server's 403 later
    expect(post).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(post).toHaveBeenCalledTimes(2);
    hold.release();
  });

  it("is set afresh for a holder that comes after everyone let it go", async () => {
    const hold = holdMediaCookie("token-1");
    await hold.ready;
    hold.release();
    await holdMediaCookie("token-1").ready;
    expect(post).toHaveBeenCalledTimes(2);
  });
});
