import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { api, unwrap, ApiError, PUBLIC_OPERATIONS } from "@/api/client";
import { failure, fakeServer, json, ok, signIn, signOutQuietly } from "../session/fakeServer";

vi.mock("@/app/navigation", () => ({ navigateTo: vi.fn(), registerNavigator: vi.fn() }));

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

  it("is left out of exactly the operations the contract declares without security", () => {
    const contract = parse(readFileSync(resolve(__dirname, "../../../openapi/openapi.yaml"), "utf8")) as {
      paths: Record<string, Record<string, object>>;
    };
    const methods = ["get", "post", "put", "patch", "delete"];
    const operations = Object.entries(contract.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => methods.includes(method))
        .map(([, operation]) => ({ path, isPublic: !("security" in operation) })),
    );
    const publicPaths = new Set(
      operations.filter((operation) => operation.isPublic).map((operation) => operation.path),
    );
    expect([...PUBLIC_OPERATIONS].sort()).toEqual([...publicPaths].sort());
    // The middleware knows paths, not methods: a path must not mix public and secured operations.
    expect(operations.filter((operation) => !operation.isPublic && publicPaths.has(operation.path))).toEqual([]);
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

describe("an answer with error: true", () => {
  it("fails a 200 call with default_error_message when it names no code", async () => {
    const server = fakeServer({
      "GET /event/grouped_sport_count": () => json({ content: null, error: true, message: "" }),
    });
    const error = await unwrap(api.GET("/event/grouped_sport_count")).catch((e: unknown) => e);
    expect(server.calls).toHaveLength(1);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, code: "default_error_message", serverMessage: undefined });
  });

  it("fails a 200 call with the code and message it names", async () => {
    fakeServer({
      "GET /event/grouped_sport_count": () => json({ error: true, message: "Nope", messageErrorCode: "forbidden" }),
    });
    await expect(api.GET("/event/grouped_sport_count")).rejects.toMatchObject({
      code: "forbidden",
      serverMessage: "Nope",
    });
  });

  it("lets error: false through", async () => {
    fakeServer({ "GET /event/grouped_sport_count": () => ok([{ sportType: "football", count: 2 }]) });
    await expect(unwrap(api.GET("/event/grouped_sport_count"))).resolves.toMatchObject({ error: false });
  });
});

describe("unwrap", () => {
  it("builds an ApiError from the error envelope, with the field errors of a 400", async () => {
    fakeServer({
      "POST /user/update_profile": () =>
        json(
          {
            error: true,
            message: "'displayName' is too long",
            messageErrorCode: "validation_error",
            details: [
              { field: "data.displayName", message: "too long" },
              { field: "data.phone", message: "not a phone number" },
              { message: "no field" },
            ],
          },
          400,
        ),
    });
    signIn();
    const error = (await unwrap(api.POST("/user/update_profile", { body: { data: { displayName: "x" } } })).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.code).toBe("validation_error");
    expect(error.serverMessage).toBe("'displayName' is too long");
    expect(error.fields).toEqual({
      "data.displayName": "too long",
      displayName: "too long",
      "data.phone": "not a phone number",
      phone: "not a phone number",
    });
  });

  it("uses default_error_message for a failure without a code (a proxy's HTML page)", async () => {
    fakeServer({ "GET /event/grouped_sport_count": () => new Response("<html>Bad gateway</html>", { status: 502 }) });
    await expect(unwrap(api.GET("/event/grouped_sport_count"))).rejects.toMatchObject({
      status: 502,
      code: "default_error_message",
      serverMessage: undefined,
    });
  });

  it("turns a call that got no answer into network_error", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.reject(new TypeError("Failed to fetch"))),
    );
    await expect(unwrap(api.GET("/event/grouped_sport_count"))).rejects.toMatchObject({
      status: 0,
      code: "network_error",
    });
  });
});
