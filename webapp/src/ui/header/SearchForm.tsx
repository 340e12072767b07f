import { useId, useState, type FormEvent } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { useLocalePath } from "@/i18n/useLocalePath";
import { SearchIcon } from "../icons";

/** Header search: submits to /search?q=… in the current locale. */
export function SearchForm() {
  const { t } = useTranslation("common");
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const [params] = useSearchParams();
  const urlQuery = params.get("q") ?? "";
  const [query, setQuery] = useState(urlQuery);
  // The header outlives pages: show the query of the search page being viewed.
  const [shownUrlQuery, setShownUrlQuery] = useState(urlQuery);
  if (shownUrlQuery !== urlQuery) {
    setShownUrlQuery(urlQuery);
    setQuery(urlQuery);
  }
  const inputId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = query.trim();
    navigate(localePath(q ? `/search?q=${encodeURIComponent(q)}` : "/search"));
  };

  return (
    // Named, so that the search page's own search landmark is told apart from this one (axe landmark-unique).
    <form className="search-form" role="search" aria-label={t("search.label")} onSubmit={submit}>
      <label className="visually-hidden" htmlFor={inputId}>
        {t("search.label")}
      </label>
      <input
        id={inputId}
        className="search-form__input"
        type="search"
        name="q"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        placeholder={t("search.placeholder")}
        enterKeyHint="search"
        autoComplete="off"
      />
      <button className="search-form__submit" type="submit" aria-label={t("search.submit")}>
        <SearchIcon />
      </button>
    </form>
  );
}
