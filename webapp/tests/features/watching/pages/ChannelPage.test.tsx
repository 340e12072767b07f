import { forwardRef } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, screen, within } from "@testing-library/react";
import type { components } from "@/api/schema.gen";
import type { EventPlayerHandle, EventPlayerProps } from "@/features/watching/event/EventPlayer";
import ChannelPage from "@/features/watching/pages/ChannelPage";
import type { UserPurchaseStatusPayload } from "@/realtime/events.gen";
import { apiEvent } from "../../../support/fixtures";
import { renderPage } from "../../../support/renderPage";
import { fakeServer, ok, signIn, signOutQuietly } from "../../../session/fakeServer";

type ApiEvent = components["schemas"]["Event"];

/** The event page's player stands in as a box showing the stream it was given. */
vi.mock("@/features/watching/event/EventPlayer", () => ({
  EventPlayer: forwardRef<EventPlayerHandle, EventPlayerProps>(function FakePlayer({ event }, _ref) {
    return <div data-testid="player" data-stream={event.streamUrl ?? ""} data-live={String(event.isLive)} />;
  }),
}));

const socket = vi.hoisted(() => ({ listeners: new Map<string, (payload: never) => void>() }));
vi.mock("@/realtime/socket", () => ({
  joinEventRoom: vi.fn(async (eventId: string) => ({ ok: true, room: `event:${eventId}` })),
  leaveEventRoom: vi.fn(async (eventId: string) => ({ ok: true, room: `event:${eventId}` })),
  useSocketEvent: (name: string, handler: (payload: never) => void) => {
    socket.listeners.set(name, handler);
  },
  onSocketEvent: (name: string, handler: (payload: never) => void) => {
    socket.listeners.set(name, handler);
    return () => socket.listeners.delete(name);
  },
}));

const ID = "c1aefc184837b3fb7057f13a";
const STREAM = "/media/live/football/from-1795000000/index.m3u8?token=channel-token";

function channel(patch: Partial<ApiEvent> = {}, content: Partial<ApiEvent["content"]> = {}): ApiEvent {
  const base = apiEvent({
    _id: ID,
    title: "Touchline Sports 24",
    description: "Round-the-clock live games, replays and studio shows.",
    status: "channel",
    eventType: "channel",
    gameType: "other",
    eventTeams: null,
    metaTitle: null,
  });
  return {
    ...base,
    ...patch,
    content: { ...base.content, HLSStream: STREAM, EPG: `/api/event/epg/${ID}`, ...content },
  };
}

const lockedChannel = () =>
  channel(
    {
      commerce_type: "commerce_subscription-basic_media",
      commerceType: ["cvod"],
      commerceCoverage: ["channel"],
      availableForUser: false,
    },
    { HLSStream: null },
  );

const minutes = (n: number) => n * 60_000;

function serve(event: () => ApiEvent, commerce?: () => unknown) {
  return fakeServer({
    [`GET /event/get_by_id/id/${ID}`]: () => ok(event()),
    "GET /event/get_commerce_options": () =>
      ok(
        commerce?.() ?? {
          eventId: ID,
          availableForUser: true,
          availableInUserRegion: true,
          commerceCoverage: ["free"],
          products: [],
        },
      ),
    [`GET /event/epg/${ID}`]: () => {
      const now = Date.now();
      const slot = (n: number, title: string, from: number, to: number) => ({
        _id: `6a1c0a8e2b3d4c5e6f7a8b9${n}`,
        title,
        description: null,
        startTime: now + from,
        endTime: now + to,
        event_id: null,
      });
      return ok({
        channel: { _id: ID, title: "Touchline Sports 24" },
        entries: [
          slot(1, "Morning Kick-off", minutes(-90), minutes(-30)),
          slot(2, "Matchday Live", minutes(-30), minutes(30)),
          slot(3, "The Big Debate", minutes(30), minutes(90)),
        ],
      });
    },
  });
}

const openChannel = () => renderPage(<ChannelPage />, { path: "/channels/:eventId", route: `/channels/${ID}` });

afterEach(() => {
  signOutQuietly();
  socket.listeners.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("ChannelPage", () => {
  it("plays a channel the viewer may watch, live, with its description and programme guide", async () => {
    serve(() => channel());
    await openChannel();

    const player = await screen.findByTestId("player");
    expect(player.dataset.stream).toBe(STREAM);
    expect(screen.getByRole("heading", { level: 1, name: "Touchline Sports 24" })).toBeTruthy();
    expect(screen.getByText("Round-the-clock live games, replays and studio shows.")).toBeTruthy();
    expect(await screen.findByText("Free to watch")).toBeTruthy();
    expect(await screen.findByRole("heading", { level: 2, name: "Programme guide" })).toBeTruthy();
  });

  it("marks the programme's slot on air now, and only that one", async () => {
    serve(() => channel());
    await openChannel();

    const onNow = (await screen.findByText("Matchday Live")).closest("li")!;
    expect(onNow.getAttribute("aria-current")).toBe("time");
    expect(onNow.className).toContain("programme__slot--now");
    expect(within(onNow).getByText("On now")).toBeTruthy();
    for (const title of ["Morning Kick-off", "The Big Debate"]) {
      const slot = screen.getByText(title).closest("li")!;
      expect(slot.hasAttribute("aria-current")).toBe(false);
    }
    expect(document.querySelectorAll('[aria-current="time"]')).toHaveLength(1);
  });

  it("shows a viewer who may not watch the paywall instead of the player", async () => {
    signIn();
    serve(lockedChannel, () => ({
      eventId: ID,
      availableForUser: false,
      availableInUserRegion: true,
      commerceCoverage: ["channel"],
      products: [],
    }));
    await openChannel();

    const paywall = await screen.findByRole("region", { name: "Watch this match" });
    expect(within(paywall).getByRole("link", { name: "Redeem a code" }).getAttribute("href")).toBe(
      `/auth/sign-up/subscription/code?redirect=${encodeURIComponent(`/channels/${ID}`)}`,
    );
    expect(screen.queryByTestId("player")).toBeNull();
    expect(await screen.findByText("Matchday Live")).toBeTruthy();
  });

  it("asks an anonymous viewer to sign in and come back to the channel", async () => {
    serve(lockedChannel);
    await openChannel();

    const signInLink = await screen.findByRole("link", { name: "Already have access? Sign in" });
    expect(signInLink.getAttribute("href")).toBe(`/auth/login/?redirect=${encodeURIComponent(`/channels/${ID}`)}`);
    expect(screen.queryByTestId("player")).toBeNull();
  });

  it("starts playing when user-purchase-status announces the subscription, without a reload", async () => {
    signIn();
    let paid = false;
    serve(() => (paid ? channel() : lockedChannel()));
    await openChannel();
    await screen.findByRole("region", { name: "Watch this match" });

    paid = true;
    const announce = socket.listeners.get("user-purchase-status") as
      ((payload: UserPurchaseStatusPayload) => void) | undefined;
    expect(announce, "the channel page listens to user-purchase-status").toBeDefined();
    await act(async () =>
      announce!({ purchaseId: "5a1c0a8e2b3d4c5e6f7a8bb2", status: "success", productId: "4b1c0a8e2b3d4c5e6f7a8bb1" }),
    );

    expect((await screen.findByTestId("player")).dataset.stream).toBe(STREAM);
  });

  it("shows the channel not-found screen for an event that is not a channel", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    serve(() => apiEvent({ _id: ID }));
    await openChannel();
    expect((await screen.findByRole("alert")).textContent).toBe("not found: channel");
  });
});
