import { useCallback, useEffect, useMemo } from "react";
import { useLocation, useNavigate } from "react-router";
import { EVENTS_PARAM, parseEventIds, withEventIds } from "./layout";

/**
 * The events on screen, kept in the address (`?events=ID1,ID2`) so that the set can be copied and
 * shared: read from it, and written back (replacing the entry, not adding one per change) as tiles
 * are added and removed. An address naming ids that are no events, or one event twice, or more
 * than four, is rewritten to what is shown.
 */
export function useEventIds(): [readonly string[], (ids: readonly string[]) => void] {
  const { search, hash } = useLocation();
  const navigate = useNavigate();
  const raw = new URLSearchParams(search).get(EVENTS_PARAM);
  const ids = useMemo(() => parseEventIds(raw), [raw]);

  const setIds = useCallback(
    (next: readonly string[]) =>
      void navigate({ search: withEventIds(search, next), hash }, { replace: true, preventScrollReset: true }),
    [navigate, search, hash],
  );

  const shown = ids.join(",");
  useEffect(() => {
    if (raw !== null && raw !== shown) setIds(parseEventIds(raw));
  }, [raw, shown, setIds]);

  return [ids, setIds];
}
