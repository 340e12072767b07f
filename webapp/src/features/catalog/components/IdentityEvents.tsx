import { useMemo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { CatalogEvent } from "@/entities/event";
import { useInfiniteEventList, type EventFilters, type EventListParams } from "../api/listEvents";
import { EventCard, EventCardSkeleton } from "@/ui/catalog/EventCard";
import { InfiniteEventList, uniqueEntries } from "./InfiniteEventList";
import { Rail } from "@/ui/catalog/Rail";

const eventKey = (event: CatalogEvent) => event.id;
const SOON_PAGE_SIZE = 12;

/**
 * The events of a league, category or team: what is live or coming as a rail, then every past
 * event as a paged list. `children` go between the two, above the list that grows as it scrolls.
 */
export function IdentityEvents({ filters, children }: { filters: EventFilters; children?: ReactNode }) {
  const { t } = useTranslation("catalog");
  const now = new Date();
  const soon = useInfiniteEventList(
    useMemo(
      (): EventListParams => ({
        filters: { ...filters, status: ["live", "upcoming"], media_type: ["event"] },
        sort: "event_date",
        order: "asc",
        size: SOON_PAGE_SIZE,
      }),
      [filters],
    ),
  );
  const past = useInfiniteEventList(
    useMemo(
      (): EventListParams => ({
        filters: { ...filters, status: ["archived"], media_type: ["event"] },
        sort: "event_date",
        order: "desc",
      }),
      [filters],
    ),
  );

  return (
    <>
      <Rail
        title={t("identity.live_and_upcoming")}
        query={soon}
        items={soon.data && uniqueEntries(soon.data.pages)}
        itemKey={eventKey}
        renderItem={(event) => <EventCard event={event} now={now} />}
        skeleton={<EventCardSkeleton />}
        more={
          soon.hasNextPage && (
            <button
              type="button"
              className="btn"
              onClick={() => void soon.fetchNextPage()}
              disabled={soon.isFetchingNextPage}
              aria-busy={soon.isFetchingNextPage}
            >
              {soon.isFetchingNextPage ? t("loading_more") : t("load_more")}
            </button>
          )
        }
      />
      {children}
      <section className="catalog-section" aria-labelledby="identity-past-events">
        <h2 id="identity-past-events" className="catalog-section__title">
          {t("identity.past_events")}
        </h2>
        <InfiniteEventList query={past} empty={t("identity.no_past_events")} headingLevel={3} />
      </section>
    </>
  );
}
