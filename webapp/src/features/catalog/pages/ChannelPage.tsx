import { useParams } from "react-router";
import { useTranslation } from "react-i18next";
import type { CatalogEvent } from "@/entities/event";
import { FallbackImage } from "@/ui/images/FallbackImage";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { useEvent } from "../api/getEvent";
import { ChannelProgramme } from "../components/ChannelProgramme";
import { EventAvailability } from "../components/EventAvailability";
import { EventPageSkeleton } from "../components/EventPageSkeleton";
import { ErrorState, LoadingNote } from "../components/States";
import { useEntityOrNotFound } from "../lib/useEntityOrNotFound";
import "../components/CatalogPage.css";
import "./EventPage.css";

const isChannel = (event: CatalogEvent): event is CatalogEvent => event.isChannel;

function Channel({ channel }: { channel: CatalogEvent }) {
  const { t } = useTranslation("catalog");
  useDocumentTitle(channel.title);
  return (
    <article className="event-page">
      <div className="event-page__hero">
        <FallbackImage
          className="event-page__poster"
          src={channel.posterUrl}
          alt=""
          fallback="banner"
          width={1280}
          height={720}
          loading="eager"
        />
      </div>
      <div className="event-page__main">
        <h1 className="event-page__title" dir="auto">
          {channel.title}
        </h1>
        {channel.description && (
          <p className="event-page__description" dir="auto">
            {channel.description}
          </p>
        )}
        <EventAvailability event={channel} />
      </div>
      <section className="catalog-section event-page__wide" aria-labelledby="channel-programme">
        <h2 id="channel-programme" className="catalog-section__title">
          {t("channel.programme")}
        </h2>
        <ChannelProgramme channel={channel} />
      </section>
    </article>
  );
}

/** /channels/:eventId: a channel (an always-on event) with its programme guide. */
export default function ChannelPage() {
  const { eventId = "" } = useParams();
  const query = useEntityOrNotFound(useEvent({ id: eventId }), "channel", isChannel);
  return (
    <div className="page">
      {query.isPending ? (
        <>
          <LoadingNote />
          <EventPageSkeleton />
        </>
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Channel channel={query.data} />
      )}
    </div>
  );
}
