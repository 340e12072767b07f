import { useEffect, useRef } from "react";
import type { EventStatus } from "@/entities/event";
import { joinEventRoom, leaveEventRoom } from "./socket";

const ROOM_STATUSES: readonly EventStatus[] = ["live", "upcoming"];

/**
 * Spec §4: an event's page (or a multiview tile) joins the event room when the event's status is
 * live or upcoming, once per status change, and leaves it when the event changes (or the page
 * goes). socket.ts counts joins per room, so every join made here is matched by one leave.
 */
export function useEventRoom(eventId: string, status: EventStatus | undefined): void {
  const joins = useRef({ eventId, count: 0 });
  const wantsRoom = status !== undefined && ROOM_STATUSES.includes(status);

  useEffect(() => {
    if (!wantsRoom) return;
    if (joins.current.eventId !== eventId) joins.current = { eventId, count: 0 };
    joins.current.count += 1;
    void joinEventRoom(eventId).then((ack) => {
      // Not connected (yet): socket.ts joins the room as soon as it is. Anything else is worth a note.
      if (!ack.ok && ack.messageErrorCode !== "service_unavailable")
        console.warn(`Live updates of event ${eventId} are unavailable: ${ack.message}`);
    });
  }, [eventId, status, wantsRoom]);

  useEffect(
    () => () => {
      const { eventId: joined, count } = joins.current;
      if (joined !== eventId) return;
      joins.current = { eventId, count: 0 };
      for (let i = 0; i < count; i += 1) void leaveEventRoom(joined);
    },
    [eventId],
  );
}
