import { afterEach, describe, expect, it, vi } from "vitest";
import { CALLBACK_MESSAGE_TYPE } from "@/features/auth/federated/callbackMessage";
import { SignInFlowError } from "@/features/auth/federated/errors";
import { openCenteredPopup, POPUP_CLOSED_CHECK_MS, waitForCallback } from "@/features/auth/federated/popup";

function fakePopup() {
  return {
    closed: false,
    close: vi.fn(function (this: { closed: boolean }) {
      this.closed = true;
    }),
  };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("the sign-in popup", () => {
  it("opens at least 512 by 730 pixels", () => {
    const open = vi.spyOn(window, "open").mockReturnValue(null);
    openCenteredPopup("about:blank", "sign-in");
    const features = String(open.mock.calls[0][2]);
    expect(Number(/width=(\d+)/.exec(features)![1])).toBeGreaterThanOrEqual(512);
    expect(Number(/height=(\d+)/.exec(features)![1])).toBeGreaterThanOrEqual(730);
  });

  it("is checked every 500 ms and fails with popup_closed once closed without an answer", async () => {
    vi.useFakeTimers();
    const popup = fakePopup();
    const outcome = waitForCallback(popup as unknown as Window, "ifa").catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(POPUP_CLOSED_CHECK_MS * 3);
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(POPUP_CLOSED_CHECK_MS + 400);
    const error = await outcome;
    expect(error).toBeInstanceOf(SignInFlowError);
    expect((error as SignInFlowError).code).toBe("popup_closed");
  });

  it("takes the callback page's answer only from this origin, then closes the popup", async () => {
    const popup = fakePopup();
    const answer = waitForCallback(popup as unknown as Window, "ifa");
    const data = { type: CALLBACK_MESSAGE_TYPE, provider: "ifa", params: { code: "c0de", state: "s" } };
    window.dispatchEvent(
      new MessageEvent("message", {
        data: { ...data, params: { code: "forged", state: "s" } },
        origin: "https://evil.test",
      }),
    );
    window.dispatchEvent(new MessageEvent("message", { data, origin: window.location.origin }));
    await expect(answer).resolves.toEqual({ code: "c0de", state: "s" });
    expect(popup.close).toHaveBeenCalled();
  });
});
