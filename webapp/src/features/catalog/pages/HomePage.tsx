import { Suspense, lazy } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { CatalogEvent } from "@/entities/event";
import type { Identity } from "@/entities/identity";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { useEventList } from "../api/listEvents";
import { useClipList } from "@/session/catalog/listClips";
import { useIdentityList } from "../api/listIdentities";
import { useAudience } from "@/session/catalog/viewer";
import { EventCard, EventCardSkeleton } from "@/ui/catalog/EventCard";
import { IdentityCard, IdentityCardSkeleton } from "../components/IdentityCard";
import { Rail } from "@/ui/catalog/Rail";
import { EmptyState } from "@/ui/catalog/States";
import { HOME_HIGHLIGHTS, HOME_LEAGUES, HOME_RAILS } from "../homeRails";
import "@/ui/catalog/CatalogPage.css";

// Signed-in viewers only, after the first render: anonymous visitors never download it.
const PersonalRails = lazy(() =>
  import("../components/loadPersonalRails").then((module) => module.loadPersonalRails()),
);

const eventKey = (event: CatalogEvent) => event.id;
const identityKey = (identity: Identity) => identity.id;

// The posters a wide screen shows before any scrolling.
const FIRST_SCREEN_RAILS = 2;
const FIRST_SCREEN_CARDS = 4;

/**
 * The home page (/ and /home): rails of live, upcoming, latest, highlights and leagues; for a
 * signed-in viewer, led by their own (what they follow, what they were watching, their club).
 */
export default function HomePage() {
  const { t } = useTranslation("catalog");
  const localePath = useLocalePath();
  useDocumentTitle(t("home.title"));
  const now = new Date();
  const signedIn = useAudience() === "viewer";

  const live = useEventList(HOME_RAILS.live);
  const upcoming = useEventList(HOME_RAILS.upcoming);
  const latest = useEventList(HOME_RAILS.latest);
  const channels = useEventList(HOME_RAILS.channels);
  const highlights = useClipList(HOME_HIGHLIGHTS);
  const leagues = useIdentityList(HOME_LEAGUES);

  const eventRails = [
    { id: "live", title: t("home.live_now"), path: "/live", query: live },
    { id: "upcoming", title: t("home.upcoming"), path: "/upcoming", query: upcoming },
    { id: "latest", title: t("home.latest"), path: "/latest", query: latest },
    { id: "highlights", title: t("home.highlights"), path: "/highlight", query: highlights },
    // Channels have no list page of their own: each card leads to its channel's page.
    { id: "channels", title: t("home.channels"), path: undefined, query: channels },
  ];
  const queries = [...eventRails.map((rail) => rail.query), leagues];
  const allEmpty = queries.every((query) => query.isSuccess && query.data.entries.length === 0);

  return (
    <div className="page catalog-page">
      <h1 className="visually-hidden">{t("home.title")}</h1>
      {signedIn && (
        <Suspense fallback={null}>
          <PersonalRails now={now} />
        </Suspense>
      )}
      {allEmpty ? (
        <EmptyState
          action={
            <Link className="btn" to={localePath("/archive")}>
              {t("home.browse_archive")}
            </Link>
          }
        >
          {t("home.empty")}
        </EmptyState>
      ) : (
        <>
          {eventRails.map((rail, railIndex) => (
            <Rail
              key={rail.id}
              title={rail.title}
              seeAllPath={rail.path}
              query={rail.query}
              items={rail.query.data?.entries}
              itemKey={eventKey}
              renderItem={(event, index) => (
                <EventCard
                  event={event}
                  now={now}
                  priority={railIndex < FIRST_SCREEN_RAILS && index < FIRST_SCREEN_CARDS}
                />
              )}
              skeleton={<EventCardSkeleton />}
            />
          ))}
          <Rail
            title={t("home.leagues")}
            size="narrow"
            query={leagues}
            items={leagues.data?.entries}
            itemKey={identityKey}
            renderItem={(league) => <IdentityCard identity={league} to={`/league/${encodeURIComponent(league.id)}`} />}
            skeleton={<IdentityCardSkeleton />}
          />
        </>
      )}
    </div>
  );
}
