import "../pages/EventPage.css";

/** The event and channel pages' shape while they load: poster, then title lines. */
export function EventPageSkeleton() {
  return (
    <div className="event-page event-page--skeleton" aria-hidden="true">
      <div className="event-page__hero" />
      <div className="event-page__main">
        <span className="event-page__line event-page__line--short" />
        <span className="event-page__line event-page__line--title" />
        <span className="event-page__line" />
      </div>
    </div>
  );
}
