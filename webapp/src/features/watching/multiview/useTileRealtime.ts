import type { EventStatus } from "@/entities/event";
import { useSocketEvent } from "@/realtime/socket";
import { useEventRoom } from "@/realtime/useEventRoom";

/**
 * A tile follows its event as the event page does: it is in the event's room while the event is
 * live or upcoming, and reads the event again when the room says its stream moved
 * (event-url-change) or the event changed (update-event). The tile then plays the new stream
 * (TileVideo starts over for another stream and only swaps the token of the same one), shows the
 * live feed's state, or says the match is no longer live.
 */
export function useTileRealtime(eventId: string, status: EventStatus | undefined, readAgain: () => void): void {
  useEventRoom(eventId, status);
  useSocketEvent("event-url-change", (payload) => {
    if (payload.eventId === eventId) readAgain();
  });
  useSocketEvent("update-event", (payload) => {
    if (payload.eventId === eventId) readAgain();
  });
}
