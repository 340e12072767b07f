// @vitest-environment node
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { api, unwrap, ApiError, PUBLIC_OPERATIONS } from "@/api/client";
import { fakeServer, json, ok, signIn, signOutQuietly } from "../session/fakeServer";

vi.mock("@/lib/navigation", () => ({ navigateTo: vi.fn(), registerNavigator: vi.fn() }));

beforeEach(() => signOutQuietly());
afterEach(() => vi.unstubAllGlobals());

describe("the authorisation header", () => {
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
