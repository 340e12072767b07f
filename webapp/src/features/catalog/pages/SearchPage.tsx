import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Link, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { useLocalePath } from "@/i18n/useLocalePath";
import { FallbackImage } from "@/ui/images/FallbackImage";
import { useSearchAll, type SearchGroups, type SearchHit } from "../api/searchAll";
import { SEARCH_MAX_LENGTH, useSearchEvents } from "../api/searchEvents";
import { CatalogPage } from "@/ui/catalog/CatalogPage";
import { EmptyState } from "@/ui/catalog/States";
import { InfiniteEventList, uniqueEntries } from "../components/InfiniteEventList";
import "./SearchPage.css";

/** Typing pauses this long before the search runs (and the URL changes). */
export const SEARCH_DEBOUNCE_MS = 250;

type NamedGroup = "teams" | "leagues" | "categories";
const NAMED_GROUPS: { group: NamedGroup; heading: string; page: (hit: SearchHit) => string }[] = [
  { group: "teams", heading: "search.group_teams", page: (hit) => `/team/${hit.id}` },
  { group: "leagues", heading: "search.group_leagues", page: (hit) => `/league/${hit.id}` },
  { group: "categories", heading: "search.group_categories", page: (hit) => `/category/${hit.id}` },
];

function groupCount(groups: SearchGroups | undefined): number {
  if (!groups) return 0;
  return groups.teams.length + groups.leagues.length + groups.categories.length + groups.sports.length;
}

/** One group of results under its heading; nothing when the group is empty. */
function ResultGroup({ id, heading, children }: { id: string; heading: string; children: ReactNode }) {
  return (
    <section className="search-group" aria-labelledby={id}>
      <h2 className="search-group__heading" id={id}>
        {heading}
      </h2>
      {children}
    </section>
  );
}

function NamedResults({ group, hits, to }: { group: NamedGroup; hits: SearchHit[]; to: (hit: SearchHit) => string }) {
  const localePath = useLocalePath();
  const isTeam = group === "teams";
  return (
    <ul className={`search-group__list search-group__list--${group}`}>
      {hits.map((hit) => (
        <li key={hit.id}>
          <Link className="search-hit" to={localePath(to(hit))}>
            <FallbackImage
              className={`search-hit__image search-hit__image--${isTeam ? "logo" : "poster"}`}
              src={hit.imageUrl}
              alt=""
              fallback={isTeam ? "generic" : "banner"}
              width={isTeam ? 48 : 85}
              height={48}
            />
            <span className="search-hit__title" dir="auto">
              {hit.title}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** /search?q=: a search box that searches as you type; the query lives in the URL. Results come
 * grouped: teams, leagues, categories and sports, each linking to its page, then the events. */
export default function SearchPage() {
  const { t } = useTranslation("catalog");
  const localePath = useLocalePath();
  const inputId = useId();
  const headingIds = useId();
  const [search, setSearch] = useSearchParams();
  const q = (search.get("q") ?? "").trim();
  const [text, setText] = useState(q);
  // What this page last wrote into the URL, to tell our own updates from outside navigation.
  const written = useRef(q);

  useEffect(() => {
    if (q !== written.current) {
      written.current = q;
      setText(q);
    }
  }, [q]);

  useEffect(() => {
    const next = text.trim();
    if (next === written.current) return;
    const timer = setTimeout(() => {
      written.current = next;
      setSearch(next ? { q: next } : {}, { replace: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, setSearch]);

  const query = q.slice(0, SEARCH_MAX_LENGTH);
  const groups = useSearchAll(query);
  const results = useSearchEvents(query);
  const shownGroups = groups.data;
  const namedFound = groupCount(shownGroups);
  const events = results.isSuccess ? uniqueEntries(results.data.pages).length : 0;
  // Said once the results of the current query are in (not while the previous ones stand in).
  const settled =
    q &&
    results.isSuccess &&
    !results.isPlaceholderData &&
    (groups.isError || (groups.isSuccess && !groups.isPlaceholderData));
  const announcement = settled
    ? [t("search.result_count", { count: events + namedFound }), results.hasNextPage ? t("search.more_results") : ""]
        .filter(Boolean)
        .join(" ")
    : "";
  // The events' own heading and "no results" only matter beside other groups, or without them.
  const showEvents = namedFound === 0 || results.isPending || events > 0;

  return (
    <CatalogPage title={t("search.title")}>
      <form
        className="search-page__form"
        role="search"
        // A name of its own beside the header's search landmark (axe landmark-unique).
        aria-label={t("search.title")}
        onSubmit={(event) => {
          event.preventDefault();
          const next = text.trim();
          written.current = next;
          setSearch(next ? { q: next } : {}, { replace: true });
        }}
      >
        <label htmlFor={inputId} className="visually-hidden">
          {t("search.label")}
        </label>
        <input
          id={inputId}
          className="search-page__input"
          type="search"
          value={text}
          maxLength={SEARCH_MAX_LENGTH}
          placeholder={t("search.placeholder")}
          autoComplete="off"
          enterKeyHint="search"
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="btn btn--primary">
          {t("search.submit")}
        </button>
      </form>
      <p className="visually-hidden search-page__count" role="status" aria-live="polite">
        {announcement}
      </p>
      {q ? (
        <section className="search-page__results" aria-label={t("search.results_for", { query: q })}>
          {shownGroups &&
            NAMED_GROUPS.map(({ group, heading, page }) =>
              shownGroups[group].length > 0 ? (
                <ResultGroup key={group} id={`${headingIds}-${group}`} heading={t(heading)}>
                  <NamedResults group={group} hits={shownGroups[group]} to={page} />
                </ResultGroup>
              ) : null,
            )}
          {shownGroups && shownGroups.sports.length > 0 && (
            <ResultGroup id={`${headingIds}-sports`} heading={t("search.group_sports")}>
              <ul className="search-group__list search-group__list--sports">
                {shownGroups.sports.map((sport) => (
                  <li key={sport.sportType}>
                    <Link className="search-hit search-hit--sport" to={localePath(`/live/${sport.sportType}`)}>
                      <span className="search-hit__title" dir="auto">
                        {sport.title}
                      </span>
                      <span className="search-hit__count">{t("search.sport_event_count", { count: sport.count })}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </ResultGroup>
          )}
          {showEvents &&
            (namedFound > 0 ? (
              <ResultGroup id={`${headingIds}-events`} heading={t("search.group_events")}>
                <InfiniteEventList query={results} empty={t("search.no_results", { query: q })} headingLevel={3} />
              </ResultGroup>
            ) : (
              <InfiniteEventList query={results} empty={t("search.no_results", { query: q })} />
            ))}
        </section>
      ) : (
        <EmptyState>{t("search.hint")}</EmptyState>
      )}
    </CatalogPage>
  );
}
