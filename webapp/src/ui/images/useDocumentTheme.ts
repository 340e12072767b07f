import { useSyncExternalStore } from "react";
import type { PlaceholderTheme } from "./placeholders";

/** The theme on `<html data-theme>` (dark unless it says light). */
export function documentTheme(): PlaceholderTheme {
  return typeof document !== "undefined" && document.documentElement.dataset.theme === "light" ? "light" : "dark";
}

// One observer for every image on the page, connected while any of them listens.
const listeners = new Set<() => void>();
let observer: MutationObserver | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!observer) {
    observer = new MutationObserver(() => listeners.forEach((notify) => notify()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      observer?.disconnect();
      observer = null;
    }
  };
}

/** Follows theme switches, so placeholders change colour with the page. */
export function useDocumentTheme(): PlaceholderTheme {
  return useSyncExternalStore(subscribe, documentTheme, () => "dark");
}
