import { useMemo } from "react";
import type { EventMapOptions } from "@/entities/event";
import { useAppConfig } from "@/lib/config";
import { useIsAuthenticated } from "@/session/store";

/**
 * How events read for this viewer: the config's options for the event mapper (spec §3), and who
 * is asking. Both are part of every query key here: answers are personal (availableForUser, signed
 * stream addresses), so a sign-in or sign-out never reuses the other's.
 */
export interface Reading {
  audience: "viewer" | "guest";
  options: EventMapOptions;
}

export function useReading(): Reading {
  const { options, enable_leagues_view } = useAppConfig();
  const audience = useIsAuthenticated() ? "viewer" : "guest";
  return useMemo(
    () => ({
      audience,
      options: {
        realKickoff: options.real_kickoff,
        teamsShortName: options.teams_short_name,
        leaguesView: enable_leagues_view,
        genderClassification: options.gender_classification,
      },
    }),
    [audience, options, enable_leagues_view],
  );
}
