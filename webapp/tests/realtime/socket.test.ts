import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderHook } from "@testing-library/react";
import { QueryClient } from "@tanstack/react-query";
import { io } from "socket.io-client";
import { appConfigQuery } from "@/lib/config";
import { navigateTo } from "@/lib/navigation";
import {
  joinEventRoom,
  leaveEventRoom,
  parseAck,
  startRealtime,
  stopRealtime,
  useSocketEvent,
} from "@/realtime/socket";
import { sessionStore } from "@/session/store";
import { failure, fakeServer, ok, refreshAnswer, signIn, signOutQuietly, USER } from "../session/fakeServer";

vi.mock("@/lib/navigation", () => ({ navigateTo: vi.fn(), registerNavigator: vi.fn() }));

type Listener = (...args: unknown[]) => void;
type AckCallback = (error: Error | null, raw?: unknown) => void;

/** Enough of a socket.io-client Socket to play the server's part. */
class FakeSocket {
  connected = false;
  emitted: { name: string; payload: unknown }[] = [];
  handshakes: Record<string, unknown>[] = [];
  ackWith: (name: string, payload: unknown) => string = (name, payload) =>
    JSON.stringify({
      ok: true,
      room: `${name.includes("user") ? "user" : "event"}:${Object.values(payload as object)[0]}`,
    });
  private listeners = new Map<string, Set<Listener>>();

  constructor(
    readonly url: string,
    readonly options: Record<string, unknown> & { auth: (send: (data: object) => void) => void },
  ) {}

  on(name: string, listener: Listener) {
    if (!this.listeners.has(name)) this.listeners.set(name, new Set());
    this.listeners.get(name)!.add(listener);
    return this;
  }
  once(name: string, listener: Listener) {
    const wrapper = (...args: unknown[]) => {
      this.off(name, wrapper);
      listener(...args);
    };
    return this.on(name, wrapper);
  }
  off(name: string, listener: Listener) {
    this.listeners.get(name)?.delete(listener);
    return this;
  }
  removeAllListeners() {
    this.listeners.clear();
    return this;
  }
  timeout() {
    return {
      emit: (name: string, payload: unknown, ack: AckCallback) => this.record(name, payload, (raw) => ack(null, raw)),
    };
  }
  emit(name: string, payload: unknown, ack?: (raw: unknown) => void) {
    this.record(name, payload, ack);
    return this;
  }
  private record(name: string, payload: unknown, ack?: (raw: unknown) => void) {
    this.emitted.push({ name, payload });
    ack?.(this.ackWith(name, payload));
  }
  connect() {
    this.options.auth((data) => this.handshakes.push(data as Record<string, unknown>));
    return this;
  }
  disconnect() {
    this.connected = false;
    return this;
  }
  /** The server accepts the handshake. */
  accept() {
    this.connected = true;
    this.fire("connect");
  }
  fire(name: string, ...args: unknown[]) {
    for (const listener of [...(this.listeners.get(name) ?? [])]) listener(...args);
  }
}

vi.mock("socket.io-client", () => ({ io: vi.fn((url: string, options: never) => new FakeSocket(url, options)) }));

const EVENT_ID = "65a1f0c2e4b0a1b2c3d4e5f6";

function clientWithConfig(socketBase: string | null): QueryClient {
  const client = new QueryClient();
  client.setQueryData(appConfigQuery.queryKey, {
    name_short: "touchline",
    app_config: { socket_base: socketBase },
    options: {},
  } as never);
  return client;
}

function start(socketBase: string | null = "/"): FakeSocket {
  startRealtime(clientWithConfig(socketBase));
  return vi.mocked(io).mock.results.at(-1)?.value as FakeSocket;
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The promise's value if it has settled by now, else "pending". */
const settledValue = <T>(promise: Promise<T>) => Promise.race([promise, Promise.resolve("pending" as const)]);

beforeEach(() => {
  signOutQuietly();
  vi.mocked(io).mockClear();
});

afterEach(() => {
  stopRealtime();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.mocked(navigateTo).mockReset();
  vi.restoreAllMocks();
});

describe("starting the socket", () => {
  it("connects to /ws over websocket only, with the spec's reconnection settings", () => {
    const socket = start("/");
    expect(socket.url).toBe(window.location.origin);
    expect(socket.options).toMatchObject({
      path: "/ws",
      transports: ["websocket"],
      reconnection: true,
      reconnectionAttempts: Infinity,
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
      randomizationFactor: 0.5,
      timeout: 20000,
    });
  });

  it("uses the origin of an absolute socket_base", () => {
    expect(start("https://live.example.com/").url).toBe("https://live.example.com");
  });

  it("does without a socket, warning once, when socket_base is null", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    start(null);
    start(null);
    expect(io).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(1);
    await expect(joinEventRoom(EVENT_ID)).resolves.toMatchObject({ ok: false });
  });

  it("sends the access token in the handshake, and none when signed out", () => {
    signIn();
    const socket = start();
    expect(socket.handshakes).toEqual([{ token: "access-1" }]);
    stopRealtime();
    signOutQuietly();
    expect(start().handshakes).toEqual([{}]);
  });
});

describe("the user room", () => {
  it("is joined on connect when signed in", () => {
    signIn();
    const socket = start();
    socket.accept();
    expect(socket.emitted).toContainEqual({ name: "join-user-room", payload: { userId: USER.id } });
  });

  it("is not joined by a signed-out visitor", () => {
    const socket = start();
    socket.accept();
    expect(socket.emitted.filter((e) => e.name === "join-user-room")).toEqual([]);
  });

  it("is left on logout, then the socket reconnects without a token", () => {
    signIn();
    const socket = start();
    socket.accept();
    sessionStore.setState({ token: null, user: null, userTokenData: null });
    expect(socket.emitted.at(-1)).toEqual({ name: "leave-user-room", payload: { userId: USER.id } });
    expect(socket.handshakes.at(-1)).toEqual({});
  });

  it("is joined after a sign-in, on a connection carrying the new token", () => {
    const socket = start();
    socket.accept();
    signIn({ token: "fresh" });
    expect(socket.handshakes.at(-1)).toEqual({ token: "fresh" });
    socket.accept();
    expect(socket.emitted.at(-1)).toEqual({ name: "join-user-room", payload: { userId: USER.id } });
  });

  it("keeps the connection and its rooms when the token is refreshed", async () => {
    signIn();
    const socket = start();
    socket.accept();
    await joinEventRoom(EVENT_ID);
    sessionStore.setState({
      token: "access-2",
      userTokenData: { ...sessionStore.getState().userTokenData!, token: "access-2" },
    });
    expect(socket.connected).toBe(true);
    expect(socket.handshakes).toEqual([{ token: "access-1" }]);
    expect(socket.emitted.map((e) => e.name)).toEqual(["join-user-room", "join-event-room"]);
  });

  it("reconnects when another viewer signs in, leaving the previous viewer's room", () => {
    signIn();
    const socket = start();
    socket.accept();
    sessionStore.setState({ user: { ...USER, id: "9a1c0a8e2b3d4c5e6f7a8bff" }, token: "other-viewer" });
    expect(socket.emitted.at(-1)).toEqual({ name: "leave-user-room", payload: { userId: USER.id } });
    expect(socket.handshakes.at(-1)).toEqual({ token: "other-viewer" });
  });
});

describe("remove-user-device", () => {
  it("logs this device out and sends it to login with deviceNoLongerAllowedError", async () => {
    signIn();
    const server = fakeServer({});
    const socket = start();
    socket.accept();
    socket.fire("remove-user-device", { deviceId: navigator.userAgent });
    await flush();
    expect(sessionStore.getState().token).toBeNull();
    expect(navigateTo).toHaveBeenCalledWith("/auth/login/?deviceNoLongerAllowedError=true", { replace: true });
    expect(server.calls).toHaveLength(0);
  });

  it("does nothing for another device", async () => {
    signIn();
    const socket = start();
    socket.accept();
    socket.fire("remove-user-device", { deviceId: "3f9d2c1e-7b4a-4e0f-9a51-2c6d8e1f0a7b" });
    await flush();
    expect(sessionStore.getState().token).toBe("access-1");
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it("takes the session-expired path when the code is refresh_token_failed", async () => {
    signIn();
    const socket = start();
    socket.accept();
    socket.fire("remove-user-device", { deviceId: navigator.userAgent, messageErrorCode: "refresh_token_failed" });
    await flush();
    expect(sessionStore.getState().token).toBeNull();
    expect(navigateTo).toHaveBeenCalledWith("/auth/login/?sessionExpired=true", { replace: true });
  });
});

describe("a refused handshake", () => {
  it("refreshes an expired token and reconnects with the new one", async () => {
    signIn();
    const server = fakeServer({ "POST /oauth2/token": () => refreshAnswer() });
    const socket = start();
    socket.fire(
      "connect_error",
      Object.assign(new Error("expired"), {
        data: { error: true, message: "expired", messageErrorCode: "unauthorized" },
      }),
    );
    await vi.waitFor(() => expect(socket.handshakes.at(-1)).toEqual({ token: "access-2" }));
    expect(server.callsTo("/oauth2/token")).toHaveLength(1);
  });

  it.each([
    ["offline", () => Promise.reject(new TypeError("Failed to fetch"))],
    ["a 5xx", () => failure(503, "database_unavailable")],
  ])("connects again after a while when the refresh fails (%s)", async (_, answer) => {
    vi.useFakeTimers();
    signIn();
    const server = fakeServer({ "POST /oauth2/token": answer });
    const socket = start();
    socket.fire(
      "connect_error",
      Object.assign(new Error("expired"), {
        data: { error: true, message: "expired", messageErrorCode: "unauthorized" },
      }),
    );
    await vi.waitFor(() => expect(server.callsTo("/oauth2/token")).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(4900);
    expect(socket.handshakes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(socket.handshakes).toEqual([{ token: "access-1" }, { token: "access-1" }]);
    expect(sessionStore.getState().token).toBe("access-1");
  });

  it("connects again after a while, still signed in, when its address has too many sockets", async () => {
    vi.useFakeTimers();
    signIn();
    const server = fakeServer({});
    const socket = start();
    socket.fire(
      "connect_error",
      Object.assign(new Error("too many"), {
        data: { error: true, message: "too many", messageErrorCode: "too_many_connections" },
      }),
    );
    await vi.advanceTimersByTimeAsync(4900);
    expect(socket.handshakes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(socket.handshakes).toEqual([{ token: "access-1" }, { token: "access-1" }]);
    expect(server.callsTo("/oauth2/token")).toHaveLength(0);
    expect(sessionStore.getState().token).toBe("access-1");
  });

  it("ends the session when the refreshed token is refused too", async () => {
    signIn();
    fakeServer({ "POST /oauth2/token": () => refreshAnswer(), "POST /user/logout": () => ok(null) });
    const socket = start();
    const refuse = () =>
      socket.fire(
        "connect_error",
        Object.assign(new Error("ended"), {
          data: { error: true, message: "ended", messageErrorCode: "unauthorized" },
        }),
      );
    refuse();
    await vi.waitFor(() => expect(socket.handshakes.at(-1)).toEqual({ token: "access-2" }));
    refuse();
    await vi.waitFor(() =>
      expect(navigateTo).toHaveBeenCalledWith("/auth/login/?sessionExpired=true", { replace: true }),
    );
  });
});

describe("event rooms", () => {
  it("joins with the ack parsed from its JSON string, and leaves with the tenant", async () => {
    const socket = start();
    socket.accept();
    await expect(joinEventRoom(EVENT_ID)).resolves.toEqual({ ok: true, room: `event:${EVENT_ID}` });
    await leaveEventRoom(EVENT_ID);
    expect(socket.emitted).toEqual([
      { name: "join-event-room", payload: { eventId: EVENT_ID } },
      { name: "leave-event-room", payload: { eventId: EVENT_ID, customer: "touchline" } },
    ]);
  });

  it("reports a refused join through the ack's ok flag", async () => {
    const socket = start();
    socket.accept();
    socket.ackWith = () => '{"ok": false, "messageErrorCode": "validation_error", "message": "bad id"}';
    await expect(joinEventRoom("nope")).resolves.toMatchObject({ ok: false, messageErrorCode: "validation_error" });
  });

  it("joins again after a reconnect, and answers a join asked while disconnected once connected", async () => {
    const socket = start();
    const joined = joinEventRoom(EVENT_ID);
    expect(socket.emitted).toEqual([]);
    socket.accept();
    await expect(joined).resolves.toMatchObject({ ok: true });
    socket.disconnect();
    socket.accept();
    expect(socket.emitted.filter((e) => e.name === "join-event-room")).toHaveLength(2);
  });

  it("answers a join asked while disconnected when the room is left first, and does not join it", async () => {
    const socket = start();
    const joined = joinEventRoom(EVENT_ID);
    await leaveEventRoom(EVENT_ID);
    await expect(settledValue(joined)).resolves.toMatchObject({ ok: false, messageErrorCode: "service_unavailable" });
    socket.accept();
    expect(socket.emitted.filter((e) => e.name === "join-event-room")).toEqual([]);
  });

  it("answers a join asked while offline once a connection would have timed out, and joins once connected", async () => {
    vi.useFakeTimers();
    const socket = start();
    const joined = joinEventRoom(EVENT_ID);
    await vi.advanceTimersByTimeAsync(19_999);
    await expect(settledValue(joined)).resolves.toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    await expect(settledValue(joined)).resolves.toMatchObject({ ok: false, messageErrorCode: "service_unavailable" });
    socket.accept();
    expect(socket.emitted).toEqual([{ name: "join-event-room", payload: { eventId: EVENT_ID } }]);
  });

  it("parses acknowledgements defensively", () => {
    expect(parseAck('{"ok":true,"room":"event:1"}')).toEqual({ ok: true, room: "event:1" });
    expect(parseAck("not json")).toMatchObject({ ok: false });
    expect(parseAck({ ok: true })).toMatchObject({ ok: false });
  });
});

describe("useSocketEvent", () => {
  it("delivers server messages to the mounted page, and stops on unmount", () => {
    const socket = start();
    const handler = vi.fn();
    const { unmount } = renderHook(() => useSocketEvent("event-url-change", handler));
    socket.fire("event-url-change", { eventId: EVENT_ID, eventUrl: "/media/live/football.m3u8" });
    expect(handler).toHaveBeenCalledWith({ eventId: EVENT_ID, eventUrl: "/media/live/football.m3u8" });
    unmount();
    socket.fire("event-url-change", { eventId: EVENT_ID, eventUrl: "/x.m3u8" });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("attaches listeners registered before the socket started", () => {
    const handler = vi.fn();
    renderHook(() => useSocketEvent("update-event", handler));
    const socket = start();
    socket.fire("update-event", { eventId: EVENT_ID, status: "live" });
    expect(handler).toHaveBeenCalledWith({ eventId: EVENT_ID, status: "live" });
  });
});
