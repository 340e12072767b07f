import { useMemo } from "react";
import type { EventMapOptions } from "@/entities/event";
import { useAudience, useEventMapOptions, type Audience } from "@/session/catalog/viewer";

/**
 * How events read for this viewer: the config's options for the event mapper (spec §3), and who
 * is asking. Both are part of every query key here: answers are personal (availableForUser, signed
 * stream addresses), so a sign-in or sign-out never reuses the other's.
 */
export interface Reading {
  audience: Audience;
  options: EventMapOptions;
}

export function useReading(): Reading {
  const audience = useAudience();
  const options = useEventMapOptions();
  return useMemo(() => ({ audience, options }), [audience, options]);
}
