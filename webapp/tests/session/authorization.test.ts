import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api, unwrap } from "@/api/client";
import { failure, fakeServer, ok, signIn, signOutQuietly } from "./fakeServer";

vi.mock("@/lib/navigation", () => ({ navigateTo: vi.fn(), registerNavigator: vi.fn() }));

beforeEach(() => signOutQuietly());
afterEach(() => vi.unstubAllGlobals());

describe("the authorisation header", () => {
  it("carries the session's bearer token when signed in", async () => {
    signIn();
    const server = fakeServer({ "GET /user/get_devices": () => ok({ devices: [], limit: 5 }) });
    await unwrap(api.GET("/user/get_devices"));
    expect(server.calls[0].authorization).toBe("Bearer access-1");
  });

  it("is absent for a signed-out visitor", async () => {
    const server = fakeServer({ "GET /event/grouped_sport_count": () => ok([]) });
    await unwrap(api.GET("/event/grouped_sport_count"));
    expect(server.calls[0].authorization).toBeNull();
  });

  it.each([
    ["/user/login", { username: "ada@example.com", password: "secret", device_id: "d", device_name: "d" }],
    [
      "/user/register",
      { email: "ada@example.com", password: "long enough", displayName: "Ada", device_id: "d", device_name: "d" },
    ],
    ["/user/verify_email", { token: "ev_0123456789abcdef0123", device_id: "d", device_name: "d" }],
    [
      "/oauth2/token",
      {
        grant_type: "token-exchange",
        subject_token: "x",
        subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      },
    ],
  ] as const)("is never sent to %s", async (path, body) => {
    signIn();
    const server = fakeServer({ [`POST ${path}`]: () => ok({}) });
    await api.POST(path as "/user/login", { body: body as never });
    expect(server.calls[0].authorization).toBeNull();
  });

  it("is never sent to public start-up calls, which do not wait for a due refresh", async () => {
    signIn({ ageShare: 0.95 });
    const server = fakeServer({
      "GET /config": () => ok({}),
      "GET /oauth2/providers": () => ok([]),
      "POST /oauth2/token": () => failure(503, "database_unavailable"),
    });
    await unwrap(api.GET("/config"));
    await unwrap(api.GET("/oauth2/providers"));
    expect(server.calls.map((call) => `${call.path} ${call.authorization}`)).toEqual([
      "/config null",
      "/oauth2/providers null",
    ]);
  });

  it("is the caller's own when the call brings one (delete_device with a limit ticket)", async () => {
    signIn();
    const server = fakeServer({ "POST /user/delete_device": () => failure(401, "unauthorized") });
    const call = api.POST("/user/delete_device", {
      body: { deviceId: "phone" },
      headers: { Authorization: "Bearer lt_ticket" },
    });
    await expect(unwrap(call)).rejects.toMatchObject({ status: 401 });
    // Sent as given, and not retried with the session's token.
    expect(server.calls.map((c) => c.authorization)).toEqual(["Bearer lt_ticket"]);
  });
});
