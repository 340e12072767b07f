import { useSyncExternalStore } from "react";

/** Below this width multiview lists the events to pick one from instead of playing several. */
export const NARROW_QUERY = "(max-width: 599.98px)";

function subscribe(listener: () => void): () => void {
  const query = window.matchMedia?.(NARROW_QUERY);
  query?.addEventListener("change", listener);
  return () => query?.removeEventListener("change", listener);
}

const isNarrow = () => window.matchMedia?.(NARROW_QUERY).matches ?? false;

/** Whether the screen is too narrow for tiles (follows rotation and resizing). */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(subscribe, isNarrow);
}
