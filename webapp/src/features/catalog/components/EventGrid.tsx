import type { CatalogEvent } from "@/entities/event";
import { EventCard, EventCardSkeleton } from "@/ui/catalog/EventCard";
import "./EventGrid.css";

/** A page's main list of cards in a responsive grid: one column on phones, as many as fit on wide screens. */
export function EventGrid({
  events,
  label,
  headingLevel = 2,
}: {
  events: readonly CatalogEvent[];
  label?: string;
  headingLevel?: 2 | 3;
}) {
  const now = new Date();
  return (
    <ul className="event-grid" aria-label={label}>
      {events.map((event) => (
        <li key={event.id} className="event-grid__item">
          <EventCard event={event} now={now} headingLevel={headingLevel} />
        </li>
      ))}
    </ul>
  );
}

export function EventGridSkeleton({ count = 8 }: { count?: number }) {
  return (
    <ul className="event-grid" aria-hidden="true">
      {Array.from({ length: count }, (_, index) => (
        <li key={index} className="event-grid__item">
          <EventCardSkeleton />
        </li>
      ))}
    </ul>
  );
}
