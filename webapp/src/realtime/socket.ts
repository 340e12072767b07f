import { useEffect, useEffectEvent } from "react";
import { io, type Socket } from "socket.io-client";
import type { QueryClient } from "@tanstack/react-query";
import { isApiError } from "@/api/apiError";
import { appConfigQuery, type AppConfig } from "@/lib/config";
import { endSessionOnRemovedDevice, expireSession } from "@/session/expiry";
import { currentDevice } from "@/session/device";
import { REFRESH_FAILED, tokenAfterRejection } from "@/session/refresh";
import { sessionStore, type SessionState } from "@/session/store";
import type {
  ClientMessageAcks,
  ConnectError,
  RemoveUserDevicePayload,
  RoomAck,
  ServerToClientEvents,
  ClientToServerEvents,
} from "./events.gen";

type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type ServerEvent = keyof ServerToClientEvents;
type RoomMessage = keyof ClientMessageAcks;

/** Socket settings of spec §9: path /ws, websocket only, endless reconnection 1–5 s with jitter. */
export const SOCKET_OPTIONS = {
  path: "/ws",
  transports: ["websocket"],
  reconnection: true,
  reconnectionAttempts: Infinity,
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  randomizationFactor: 0.5,
  timeout: 20000,
} as const;
const ACK_TIMEOUT_MS = 20000;
/** After "service_unavailable" the server could not check the session: try again later. */
const UNAVAILABLE_RETRY_MS = 5000;

let socket: AppSocket | null = null;
let config: AppConfig | undefined;
let stopSessionSync: (() => void) | null = null;
let warnedNoSocket = false;
/** The token the current handshake carries, to recognise a refusal of it. */
let handshakeToken: string | null = null;
/** A token obtained because the socket refused the previous one: refused again, the session is over. */
let refreshedForSocket: string | null = null;
/** Event rooms this page is in, with how many components asked for each. */
const eventRooms = new Map<string, number>();
/** Joins asked for while disconnected, answered by the join the next connect sends (or a timeout). */
const pendingJoins = new Map<string, Set<(ack: RoomAck) => void>>();
/** Page listeners, kept here so they survive the socket being created after them. */
const listeners = new Map<ServerEvent, Set<(payload: never) => void>>();

/** The socket's origin: socket_base may be relative ("/") to the page. */
export function socketUrl(socketBase: string): string {
  return new URL(socketBase, window.location.href).origin;
}

function unavailableAck(): RoomAck {
  return { ok: false, messageErrorCode: "service_unavailable", message: "Realtime updates are not available" };
}

/** Acknowledgements are JSON strings (asyncapi x-ack). */
export function parseAck(raw: unknown): RoomAck {
  if (typeof raw !== "string")
    return { ok: false, messageErrorCode: "validation_error", message: "The acknowledgement is not a JSON string" };
  try {
    const ack = JSON.parse(raw) as RoomAck;
    if (ack && typeof ack === "object" && typeof ack.ok === "boolean") return ack;
  } catch {
    // fall through: a malformed acknowledgement is a failed one
  }
  return { ok: false, messageErrorCode: "validation_error", message: "The acknowledgement is not valid JSON" };
}

function emitRoomMessage<N extends RoomMessage>(
  name: N,
  payload: Parameters<ClientToServerEvents[N]>[0],
): Promise<RoomAck> {
  // socket.io's typed emit cannot follow a generic name through timeout(): emit untyped here.
  const current = socket as Socket | null;
  if (!current?.connected) return Promise.resolve(unavailableAck());
  return new Promise((resolve) => {
    current.timeout(ACK_TIMEOUT_MS).emit(name, payload, (error: Error | null, raw?: unknown) => {
      resolve(error ? { ok: false, messageErrorCode: "service_unavailable", message: error.message } : parseAck(raw));
    });
  });
}

/**
 * Starts the realtime connection once (spec §5): nothing but a warning when the tenant has no
 * socket_base. The connection follows the viewer: it reconnects after a sign-in or a logout,
 * and joins the user room on every connect.
 */
export function startRealtime(queryClient: QueryClient): void {
  if (socket) return;
  config = queryClient.getQueryData(appConfigQuery.queryKey);
  const socketBase = config?.app_config?.socket_base;
  if (!socketBase) {
    if (!warnedNoSocket) console.warn("Realtime disabled: the configuration has no socket_base.");
    warnedNoSocket = true;
    return;
  }
  socket = io(socketUrl(socketBase), {
    ...SOCKET_OPTIONS,
    transports: [...SOCKET_OPTIONS.transports],
    autoConnect: false,
    // Read at every (re)connection, so a reconnect always carries the current token.
    auth: (send) => {
      handshakeToken = sessionStore.getState().token;
      send(handshakeToken ? { token: handshakeToken } : {});
    },
  });
  socket.on("connect", onConnect);
  socket.on("connect_error", (error) => void onConnectError(error));
  socket.on("remove-user-device", onRemoveUserDevice);
  for (const [name, set] of listeners) for (const listener of set) socket.on(name, listener as never);
  stopSessionSync = sessionStore.subscribe(onSessionChange);
  socket.connect();
}

/** Closes the connection and forgets the rooms (tests, and a page being torn down). */
export function stopRealtime(): void {
  stopSessionSync?.();
  stopSessionSync = null;
  socket?.removeAllListeners();
  socket?.disconnect();
  socket = null;
  handshakeToken = null;
  refreshedForSocket = null;
  eventRooms.clear();
  for (const eventId of [...pendingJoins.keys()]) answerParkedJoins(eventId, unavailableAck());
}

function onConnect(): void {
  const { user, token } = sessionStore.getState();
  // After a reconnect the server has forgotten this connection's rooms (asyncapi).
  if (user && token) void joinUserRoom(user.id);
  for (const eventId of eventRooms.keys()) {
    void emitRoomMessage("join-event-room", { eventId }).then((ack) => answerParkedJoins(eventId, ack));
  }
}

/**
 * A join asked for while disconnected: answered by the next connect's join, or with the
 * unavailable ack once a connection attempt would have timed out (offline, it would hang
 * forever). The room is still joined on the next connect while the page keeps it.
 */
function parkJoin(eventId: string): Promise<RoomAck> {
  return new Promise((resolve) => {
    const parked = pendingJoins.get(eventId) ?? new Set();
    pendingJoins.set(eventId, parked);
    const answer = (ack: RoomAck) => {
      clearTimeout(timer);
      parked.delete(answer);
      if (parked.size === 0 && pendingJoins.get(eventId) === parked) pendingJoins.delete(eventId);
      resolve(ack);
    };
    const timer = setTimeout(() => answer(unavailableAck()), SOCKET_OPTIONS.timeout);
    parked.add(answer);
  });
}

function answerParkedJoins(eventId: string, ack: RoomAck): void {
  for (const answer of [...(pendingJoins.get(eventId) ?? [])]) answer(ack);
}

/** Connects again later if still disconnected (and still the same socket). */
function reconnectLater(): void {
  const current = socket;
  setTimeout(() => current && current === socket && !current.connected && current.connect(), UNAVAILABLE_RETRY_MS);
}

async function joinUserRoom(userId: string): Promise<void> {
  const ack = await emitRoomMessage("join-user-room", { userId });
  if (!ack.ok) console.warn(`Could not join the user room: ${ack.message}`);
}

async function onConnectError(error: Error & { data?: Partial<ConnectError> }): Promise<void> {
  const code = error.data?.messageErrorCode;
  // Our database hiccuped, or this address has all the sockets it may have: try again later.
  if (code === "service_unavailable" || code === "too_many_connections") {
    reconnectLater();
    return;
  }
  if (code !== "unauthorized") return; // transport failures: socket.io retries by itself
  const refused = handshakeToken;
  if (!refused) return;
  // An expired access token: refresh and connect again with the new one (socket.io does not
  // reconnect after a refusal). A token refused right after such a refresh means the session
  // has ended: sign out (asyncapi ConnectError).
  if (refused === refreshedForSocket) {
    await expireSession();
    return;
  }
  try {
    refreshedForSocket = await tokenAfterRejection(refused);
    if (socket && !socket.connected) socket.connect();
  } catch (error) {
    // refresh_token_failed has ended the session, and the logout reconnected without a token.
    // Offline, a 5xx or a 429: nothing reconnects by itself, so try again later.
    if (!isApiError(error, REFRESH_FAILED)) reconnectLater();
  }
}

/**
 * The token counts only at the handshake: a refreshed token keeps the connection and its rooms
 * (messages sent during a reconnect would be lost). Only another viewer, or signing in or out,
 * needs a new handshake.
 */
function onSessionChange(state: SessionState, previous: SessionState): void {
  const sameViewer = state.user?.id === previous.user?.id && !state.token === !previous.token;
  if (sameViewer) return;
  const current = socket;
  if (!current) return;
  // Spec §4: leave the user room on logout, on the connection that is still the user's.
  if (previous.user && previous.user.id !== state.user?.id && current.connected) {
    current.emit("leave-user-room", { userId: previous.user.id }, () => undefined);
  }
  current.disconnect();
  current.connect();
}

/** Spec §4: this device was removed from the account; another device's removal is not ours. */
function onRemoveUserDevice({ deviceId, messageErrorCode }: RemoveUserDevicePayload): void {
  if (deviceId !== currentDevice().id) return;
  if (messageErrorCode === REFRESH_FAILED) void expireSession();
  else void endSessionOnRemovedDevice();
}

/**
 * Receives an event's live changes (event-url-change, update-event). The ack's `ok` says whether
 * updates will come; the room is joined again after every reconnect until left.
 */
export function joinEventRoom(eventId: string): Promise<RoomAck> {
  const count = eventRooms.get(eventId) ?? 0;
  eventRooms.set(eventId, count + 1);
  if (!socket) return Promise.resolve(unavailableAck());
  if (!socket.connected) return parkJoin(eventId);
  if (count > 0) return Promise.resolve({ ok: true, room: `event:${eventId}` });
  return emitRoomMessage("join-event-room", { eventId });
}

export function leaveEventRoom(eventId: string): Promise<RoomAck> {
  const count = eventRooms.get(eventId) ?? 0;
  if (count > 1) {
    eventRooms.set(eventId, count - 1);
    return Promise.resolve({ ok: true, room: `event:${eventId}` });
  }
  eventRooms.delete(eventId);
  // Joins still waiting for a connection will not be made now: answer them.
  answerParkedJoins(eventId, unavailableAck());
  return emitRoomMessage("leave-event-room", { eventId, customer: config?.name_short });
}

/** Listens to a server message while mounted; the handler may change between renders. */
export function useSocketEvent<N extends ServerEvent>(name: N, handler: ServerToClientEvents[N]): void {
  const handle = useEffectEvent((payload: never) => (handler as (payload: never) => void)(payload));
  useEffect(() => onSocketEvent(name, ((payload: never) => handle(payload)) as ServerToClientEvents[N]), [name]);
}

/** Listens to a server message outside React; returns the function that stops listening. */
export function onSocketEvent<N extends ServerEvent>(name: N, handler: ServerToClientEvents[N]): () => void {
  const listener = handler as unknown as (payload: never) => void;
  let set = listeners.get(name);
  if (!set) listeners.set(name, (set = new Set()));
  set.add(listener);
  socket?.on(name, listener as never);
  return () => {
    set.delete(listener);
    socket?.off(name, listener as never);
  };
}
