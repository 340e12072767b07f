// Generated from asyncapi/asyncapi.yaml by scripts/realtime-types.mjs. Do not edit:
// run `cd webapp && npm run generate`.

/** 24 lowercase hex characters, like every Touchline `_id`. */
export type Id = string;

/** Machine-readable error code, snake_case (the client translates `errors.{code}`). */
export type ErrorCode = string;

export interface UserRoomRequest {
  userId: Id;
}

export interface WatchRoomRequest {
  /** `user:{userId}`, `event:{eventId}`, `ingest:{eventId}`, `media:{eventId}` or `qoe:{eventId}`. */
  room: string;
}

export interface JoinEventRoomRequest {
  eventId: Id;
}

export interface LeaveEventRoomRequest {
  eventId: Id;
  /** Tenant short name the web client sends along; the server ignores it. */
  customer?: string;
}

/** The single acknowledgement argument, JSON text of a `RoomAck`. */
export type AckString = string;

/** Parsed acknowledgement of a join/leave message. */
export type RoomAck = RoomAckOk | RoomAckError;

export interface RoomAckOk {
  ok: true;
  /** `user:{userId}`, `event:{eventId}` or (watched by staff) `ingest:{eventId}` or `media:{eventId}`. */
  room: string;
}

export interface RoomAckError {
  ok: false;
  /**
   * `validation_error`: the payload (or the event name) does not match this document;
   * `forbidden`: the connection may not use that user room (not its user, or its
   * session has ended), or a connection of an account that is not staff asked to
   * `watch-room`; `service_unavailable`: the session could not be checked right
   * now, try again; `too_many_rooms`: the connection is in as many rooms as it may be
   * (see Caps), leave one first.
   */
  messageErrorCode: "validation_error" | "forbidden" | "service_unavailable" | "too_many_rooms";
  message: string;
  /** One entry per schema violation (validation_error only). */
  details?: {
    /** Dotted path of the offending field, empty for the payload itself. */
    field: string;
    message: string;
  }[];
}

/** `err.data` of a refused connection (the REST error envelope). */
export interface ConnectError {
  error: true;
  message: string;
  /**
   * `unauthorized`: the token is invalid or expired, or its session has ended (sign
   * out); `service_unavailable`: the session could not be checked, reconnect later;
   * `too_many_connections`: this client address has as many connections open as it may
   * (see Caps), reconnect later.
   */
  messageErrorCode: "unauthorized" | "service_unavailable" | "too_many_connections";
}

export interface UserRef {
  userId: Id;
}

export interface EventUrlChangePayload {
  eventId: Id;
  /**
   * The event's stored HLS playlist URL (root-relative when on this server), never a
   * viewer's signed URL: reload the event for the URL signed for you.
   */
  eventUrl: string;
}

export type EventStatus = "live" | "upcoming" | "archived" | "channel" | "vod";

/** `eventId` plus at least one changed field; wire names as in the REST `Event`. */
export interface UpdateEventPayload {
  eventId: Id;
  title?: string;
  description?: string | null;
  status?: EventStatus;
  event_date?: string;
  gameStartDate?: string | null;
  /** The live input the event plays left (`reconnecting`, `interrupted`) or is back (null), as the REST `Event.liveFeed`. */
  liveFeed?: "reconnecting" | "interrupted" | null;
  endDate?: string | null;
  sportType?: string | null;
  commerce_type?: "commerce_free_media" | "commerce_members_media" | "commerce_ppv_media" | "commerce_transactional_media" | "commerce_subscription-basic_media";
  /** Changed media locations only. */
  content?: {
    HLSStream?: string | null;
    PanoStream?: string | null;
    PosterH?: string | null;
    MezzanineVideo?: string | null;
    EPG?: string | null;
  };
}

export interface RemoveUserDevicePayload {
  /** The device id the client registered (its browser identification string). */
  deviceId: string;
  messageErrorCode?: ErrorCode;
}

export interface UserPurchaseStatusPayload {
  purchaseId: Id;
  status: "init" | "in progress" | "success" | "error";
  productId: Id;
  eventId?: Id;
}

export interface TagsChangePayload {
  eventId: Id;
  tagIds: Id[];
  change: "saved" | "removed";
}

export interface FollowedEventLivePayload {
  eventId: Id;
  /** The event's title as this user may see it (no score when spoiler-free). */
  title: string;
  /** When the alert went out (close to when the event went on air). */
  wentLiveAt: string;
}

export interface Comment {
  _id: Id;
  text: string;
  userId: Id;
  displayName: string;
  created: string;
  updated?: string;
}

export interface CommentOnMediaPayload {
  mediaId: Id;
  comment: Comment;
}

export interface CommentOnMediaDeletedPayload {
  mediaId: Id;
  commentId: Id;
}

/**
 * `starting`: an encoder publishes and its first segments are being made; `preview`: on the
 * air for staff only (the event is not live yet); `live`: on air; `reconnecting`: the encoder
 * left within the grace (TOUCHLINE_INGEST_RECONNECT_SECONDS); `interrupted`: it stayed away
 * longer (the event stays live); `finished`: the recording is the event's archive.
 */
export type IngestState = "starting" | "preview" | "live" | "reconnecting" | "interrupted" | "finished";

export interface MediaJobChangePayload {
  eventId: Id;
  jobId: Id;
  kind: "transcode" | "previews";
  state: "queued" | "running" | "done" | "failed" | "cancelled";
  percent: number;
  etaSeconds: number | null;
  assetId: Id | null;
  /** Why it failed, in one line. */
  error: string | null;
}

export interface QoeAlertPayload {
  eventId: Id;
  /** True while either threshold is crossed. */
  raised: boolean;
  rebuffering: boolean;
  startFailures: boolean;
  rebufferingRatio: number | null;
  startFailureRate: number | null;
  plays: number;
}

export interface UserPurchaseCreditedPayload {
  purchaseId: Id;
  eventId: Id;
  kind: "refund" | "access_code";
  /** What was refunded (0 for an access code). */
  amountMinor: number;
  currency: string | null;
}

export interface IngestStateChangePayload {
  eventId: Id;
  state: IngestState;
  previous: IngestState;
  assetId: Id;
}

/** Messages the server sends; listen with socket.on(name, handler). */
export interface ServerToClientEvents {
  /** The event went live or its stream moved. */
  "event-url-change": (payload: EventUrlChangePayload) => void;
  /** Some fields of an event changed; only those fields are sent. */
  "update-event": (payload: UpdateEventPayload) => void;
  /** Global tags of the event (its key plays among them) were added, changed or removed. */
  "tags-change": (payload: TagsChangePayload) => void;
  /** The user's device `deviceId` lost its session. */
  "remove-user-device": (payload: RemoveUserDevicePayload) => void;
  /** A purchase of the user moved to a new state. */
  "user-purchase-status": (payload: UserPurchaseStatusPayload) => void;
  /** An event of a team, league or category the user follows has just gone live. */
  "followed-event-live": (payload: FollowedEventLivePayload) => void;
  /** The account `userId` was created (declared by the web client, which takes no action yet). */
  "register-user": (payload: UserRef) => void;
  /** The account `userId` was deleted (declared by the web client, which takes no action yet). */
  "unregister-user": (payload: UserRef) => void;
  /** A comment was added to a media item. */
  "comment-on-media": (payload: CommentOnMediaPayload) => void;
  "comment-on-media-deleted": (payload: CommentOnMediaDeletedPayload) => void;
  "comment-on-media-updated": (payload: CommentOnMediaPayload) => void;
  /** The live input of event `eventId` is now `state`. */
  "ingest-state-change": (payload: IngestStateChangePayload) => void;
  /** Job `jobId` of event `eventId` is now `state`, `percent` done. */
  "media-job-change": (payload: MediaJobChangePayload) => void;
  /** Event `eventId`'s rebuffering ratio or start failures of the last five minutes crossed a threshold. */
  "qoe-alert": (payload: QoeAlertPayload) => void;
  /** The user's pay-per-view purchase `purchaseId` was credited because the event's stream failed. */
  "user-purchase-credited": (payload: UserPurchaseCreditedPayload) => void;
}

/** Messages the client emits; the server acknowledges each with a JSON string. */
export interface ClientToServerEvents {
  /** Receive the signed-in user's own messages (devices, purchases, account). */
  "join-user-room": (payload: UserRoomRequest, ack: (ack: AckString) => void) => void;
  /** Stop receiving the user's messages (sent on logout). */
  "leave-user-room": (payload: UserRoomRequest, ack: (ack: AckString) => void) => void;
  /** Receive stream and detail changes of one event (or comments of one media item). */
  "join-event-room": (payload: JoinEventRoomRequest, ack: (ack: AckString) => void) => void;
  /** Sent when the eventId route parameter changes. */
  "leave-event-room": (payload: LeaveEventRoomRequest, ack: (ack: AckString) => void) => void;
  /** Receive everything a user, event or ingest room receives, for support tools (`touchline socket watch`). */
  "watch-room": (payload: WatchRoomRequest, ack: (ack: AckString) => void) => void;
}

/** The parsed acknowledgement of each client message. */
export interface ClientMessageAcks {
  "join-user-room": RoomAck;
  "leave-user-room": RoomAck;
  "join-event-room": RoomAck;
  "leave-event-room": RoomAck;
  "watch-room": RoomAck;
}

export type ServerMessageName = keyof ServerToClientEvents;
export type ClientMessageName = keyof ClientToServerEvents;
