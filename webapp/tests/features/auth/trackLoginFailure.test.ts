import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/api/apiError";
import { analytics } from "@/lib/analytics";
import { trackLoginFailure } from "@/features/auth/signIn/trackLoginFailure";

afterEach(() => vi.restoreAllMocks());

describe("failed sign-ins are tracked (spec §8)", () => {
  it("with the API's code and message", () => {
    const track = vi.spyOn(analytics, "track");
    const error = new ApiError(400, {
      error: true,
      message: "Wrong e-mail address or password",
      messageErrorCode: "invalid_credentials",
    });
    trackLoginFailure(error);
    expect(track).toHaveBeenCalledWith("login_failed", {
      provider: "credentials",
      code: "invalid_credentials",
      message: "Wrong e-mail address or password",
    });
  });

  it("with a provider's failure code", () => {
    const track = vi.spyOn(analytics, "track");
    trackLoginFailure(Object.assign(new Error("Popup was closed"), { code: "popup_closed" }), "google");
    expect(track).toHaveBeenCalledWith("login_failed", {
      provider: "google",
      code: "popup_closed",
      message: "Popup was closed",
    });
  });
});
