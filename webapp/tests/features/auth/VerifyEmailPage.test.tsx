import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import VerifyEmailPage from "@/features/auth/pages/VerifyEmailPage";
import { sessionStore } from "@/session/store";
import { json, renderPage, resetSession, setUpI18n, signedIn, stubApi } from "./authTestKit";

const ROUTE = "/auth/verify";
const TOKEN = "ev_Vb3kX9mQ2tL7wZc4Rn8Jd1Hf";

beforeAll(setUpI18n);
beforeEach(resetSession);
afterEach(() => vi.unstubAllGlobals());

describe("the confirmation link's page", () => {
  it("sends the token once, signs the new account in and goes on to personalization", async () => {
    const api = stubApi({ "POST /api/user/verify_email": () => json(signedIn(true)) });
    const { router } = renderPage(VerifyEmailPage, { path: ROUTE, url: `${ROUTE}?token=${TOKEN}` });

    await waitFor(() => expect(router.state.location.pathname).toBe("/auth/sign-up/personalization/"));
    expect(api.callsTo("POST /api/user/verify_email")).toHaveLength(1);
    expect(await api.callsTo("POST /api/user/verify_email")[0].json()).toEqual({
      token: TOKEN,
      device_id: navigator.userAgent,
      device_name: navigator.userAgent,
      strategy: "refresh",
    });
    expect(sessionStore.getState().token).toBe("access-token-1");
  });

  it("says a used or expired link is no longer valid", async () => {
    stubApi({
      "POST /api/user/verify_email": () =>
        json(
          {
            error: true,
            message: "This verification link is no longer valid",
            messageErrorCode: "invalid_verification_token",
          },
          400,
        ),
    });
    renderPage(VerifyEmailPage, { path: ROUTE, url: `${ROUTE}?token=${TOKEN}` });
    expect(
      await screen.findByText(
        "This confirmation link is no longer valid. It may have been used already or have expired.",
      ),
    ).toBeTruthy();
  });

  it("says an incomplete link is incomplete, without calling the server", async () => {
    const api = stubApi({});
    renderPage(VerifyEmailPage, { path: ROUTE, url: `${ROUTE}?token=short` });
    expect(
      await screen.findByText("This confirmation link is incomplete. Copy the whole link from the e-mail."),
    ).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });
});
