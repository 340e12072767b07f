import { useEffect, useId, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { SEARCH_MAX_LENGTH, useSearchEvents } from "../api/searchEvents";
import { CatalogPage } from "../components/CatalogPage";
import { EmptyState } from "../components/States";
import { InfiniteEventList, uniqueEntries } from "../components/InfiniteEventList";
import "./SearchPage.css";

/** Typing pauses this long before the search runs (and the URL changes). */
export const SEARCH_DEBOUNCE_MS = 250;

/** /search?q=: a search box that searches as you type; the query lives in the URL. */
export default function SearchPage() {
  const { t } = useTranslation("catalog");
  const inputId = useId();
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

  const results = useSearchEvents(q);
  // Said once the results of the current query are in (not while the previous ones stand in).
  const found = q && results.isSuccess && !results.isPlaceholderData ? uniqueEntries(results.data.pages).length : null;
  const announcement =
    found === null
      ? ""
      : [t("search.result_count", { count: found }), results.hasNextPage ? t("search.more_results") : ""]
          .filter(Boolean)
          .join(" ");

  return (
    <CatalogPage title={t("search.title")}>
      <form
        className="search-page__form"
        role="search"
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
        <section aria-label={t("search.results_for", { query: q })}>
          <InfiniteEventList query={results} empty={t("search.no_results", { query: q })} />
        </section>
      ) : (
        <EmptyState>{t("search.hint")}</EmptyState>
      )}
    </CatalogPage>
  );
}
