import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { navigateTo } from "@/lib/navigation";
import { appConfigQuery } from "@/lib/config";
import { queryClient } from "@/lib/queryClient";
import { expireSession } from "@/session/expiry";
import { sessionStore } from "@/session/store";
import { fakeServer, signIn, signOutQuietly } from "./fakeServer";

vi.mock("@/lib/navigation", () => ({ navigateTo: vi.fn(), registerNavigator: vi.fn() }));

function setConfig(options: Record<string, boolean>) {
  queryClient.setQueryData(appConfigQuery.queryKey, { name_short: "Touchline", options } as never);
}

beforeEach(() => signOutQuietly());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(navigateTo).mockReset();
  queryClient.clear();
});

describe("expireSession", () => {
  it("logs out without revocation and goes to the session-expired login", async () => {
    signIn();
    const server = fakeServer({});
    await expireSession();
    expect(server.calls).toHaveLength(0);
    expect(sessionStore.getState().token).toBeNull();
    expect(navigateTo).toHaveBeenCalledWith("/auth/login/?sessionExpired=true", { replace: true });
  });

  it("goes home for an ifa session when the login page is skipped, to the login page otherwise", async () => {
    setConfig({ skip_login: true });
    signIn({ provider: "ifa" });
    await expireSession();
    expect(navigateTo).toHaveBeenLastCalledWith("/", { replace: true });
    signIn({ provider: "google" });
    await expireSession();
    expect(navigateTo).toHaveBeenLastCalledWith("/auth/login/?sessionExpired=true", { replace: true });
  });

  it("does nothing without a session", async () => {
    await expireSession();
    expect(navigateTo).not.toHaveBeenCalled();
  });
});
