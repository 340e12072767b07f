import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import OAuthCallbackPage from "@/features/auth/pages/OAuthCallbackPage";
import { CALLBACK_MESSAGE_TYPE } from "@/features/auth/federated/callbackMessage";
import { renderPage, setUpI18n, stubApi } from "./authTestKit";

const ROUTE = "/auth/oauth2/callback/:provider";

beforeAll(setUpI18n);
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Object.defineProperty(window, "opener", { value: null, configurable: true, writable: true });
});

describe("the provider's callback page in the popup", () => {
  it("hands code and state to its opener, on this origin only, and closes", async () => {
    stubApi({});
    const postMessage = vi.fn();
    Object.defineProperty(window, "opener", { value: { postMessage }, configurable: true, writable: true });
    const close = vi.spyOn(window, "close").mockImplementation(() => undefined);
    window.history.replaceState(null, "", "/auth/oauth2/callback/ifa/?code=auth-code-1&state=s-123");

    renderPage(OAuthCallbackPage, { path: ROUTE, url: "/auth/oauth2/callback/ifa/?code=auth-code-1&state=s-123" });
    await waitFor(() => expect(postMessage).toHaveBeenCalledTimes(1));
    expect(postMessage).toHaveBeenCalledWith(
      { type: CALLBACK_MESSAGE_TYPE, provider: "ifa", params: { code: "auth-code-1", state: "s-123" } },
      window.location.origin,
    );
    expect(window.location.search).toBe(""); // the single-use code leaves this window's history
    await waitFor(() => expect(close).toHaveBeenCalled());
  });

  it("refuses an unknown provider with the spec's message", async () => {
    stubApi({});
    renderPage(OAuthCallbackPage, { path: ROUTE, url: "/auth/oauth2/callback/myspace/?code=x" });
    expect(await screen.findByText('"myspace" auth provider not supported!')).toBeTruthy();
  });
});
