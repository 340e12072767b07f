import { useMemo } from "react";
import { useAppConfig, type AppConfig } from "@/lib/config";
import { useIsAuthenticated } from "../store";
import type { EventMapOptions } from "@/entities/event";
import type { IdentityMapOptions } from "@/entities/identity";

/**
 * Who is asking, as part of every catalogue query key: answers are personalised by the bearer
 * token (availableForUser, signed stream URLs), so signing in or out must not reuse the other's.
 */
export type Audience = "viewer" | "guest";

export function useAudience(): Audience {
  return useIsAuthenticated() ? "viewer" : "guest";
}

/** The config options the event mapper needs (spec §3, customer config). */
export function eventMapOptionsOf(config: AppConfig): EventMapOptions {
  return {
    realKickoff: config.options.real_kickoff,
    teamsShortName: config.options.teams_short_name,
    leaguesView: config.enable_leagues_view,
    genderClassification: config.options.gender_classification,
  };
}

export function useEventMapOptions(): EventMapOptions {
  const config = useAppConfig();
  return useMemo(() => eventMapOptionsOf(config), [config]);
}

export function useIdentityMapOptions(): IdentityMapOptions {
  const teamsShortName = useAppConfig().options.teams_short_name;
  return useMemo(() => ({ teamsShortName }), [teamsShortName]);
}
