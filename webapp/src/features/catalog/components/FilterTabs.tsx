import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { useLocalePath } from "@/i18n/useLocalePath";
import "./FilterTabs.css";

export interface FilterTab {
  key: string;
  label: string;
  /** App path (with query) the tab leads to. */
  to: string;
}

/**
 * Filters that live in the URL (sport, date range) as a row of links: shareable, work with
 * back/forward, and the current one is announced with aria-current.
 */
export function FilterTabs({ label, tabs, current }: { label: string; tabs: readonly FilterTab[]; current: string }) {
  const localePath = useLocalePath();
  const list = useRef<HTMLUListElement>(null);
  // On a phone the row scrolls sideways: bring the current tab into view, without moving the page.
  useEffect(() => {
    list.current
      ?.querySelector<HTMLElement>('[aria-current="page"]')
      ?.scrollIntoView?.({ inline: "nearest", block: "nearest" });
  }, [current, tabs.length]);
  return (
    <nav className="filter-tabs" aria-label={label}>
      <ul className="filter-tabs__list" ref={list}>
        {tabs.map((tab) => (
          <li key={tab.key}>
            <Link
              className="filter-tabs__tab"
              to={localePath(tab.to)}
              aria-current={tab.key === current ? "page" : undefined}
              replace
              preventScrollReset
            >
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
