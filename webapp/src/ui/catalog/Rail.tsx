import { useId, type ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { useLocalePath } from "@/i18n/useLocalePath";
import { ErrorState } from "./States";
import { ChevronIcon } from "./icons";
import "./Rail.css";

interface RailQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

interface Props<T> {
  title: string;
  /** The page listing everything ("See all"). */
  seeAllPath?: string;
  query: RailQuery;
  items: readonly T[] | undefined;
  itemKey: (item: T) => string;
  renderItem: (item: T, index: number) => ReactNode;
  skeleton: ReactNode;
  /** Narrow items (leagues) or wide ones (event cards). */
  size?: "wide" | "narrow";
  /** The rail's last item once loaded, such as a "Load more" button. */
  more?: ReactNode;
}

/**
 * A titled, horizontally scrollable row of cards. Nothing is rendered once it turns out empty,
 * so the home page only shows rails with something in them.
 */
export function Rail<T>({
  title,
  seeAllPath,
  query,
  items,
  itemKey,
  renderItem,
  skeleton,
  size = "wide",
  more,
}: Props<T>) {
  const { t } = useTranslation("catalog");
  const localePath = useLocalePath();
  const headingId = useId();
  if (!query.isPending && !query.isError && !items?.length) return null;

  return (
    <section className={`rail rail--${size}`} aria-labelledby={headingId}>
      <header className="rail__header">
        <h2 id={headingId} className="rail__title">
          {title}
        </h2>
        {seeAllPath && (
          <Link className="rail__see-all" to={localePath(seeAllPath)}>
            {t("see_all")}
            <span className="visually-hidden">: {title}</span>
            <ChevronIcon />
          </Link>
        )}
      </header>
      {query.isError && !items ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <ul className="rail__list" aria-busy={query.isPending}>
          {query.isPending || !items
            ? Array.from({ length: 4 }, (_, index) => (
                <li key={index} className="rail__item" aria-hidden="true">
                  {skeleton}
                </li>
              ))
            : items.map((item, index) => (
                <li key={itemKey(item)} className="rail__item">
                  {renderItem(item, index)}
                </li>
              ))}
          {more && items && <li className="rail__item rail__item--more">{more}</li>}
        </ul>
      )}
    </section>
  );
}
