import { queryOptions, useSuspenseQuery } from "@tanstack/react-query";
import { api } from "@/api/client";
import type { components } from "@/api/schema.gen";

export type AppConfig = components["schemas"]["AppConfig"];

/** The tenant's public configuration (GET /api/config), loaded once before the first render. */
export const appConfigQuery = queryOptions({
  queryKey: ["app-config"],
  queryFn: async (): Promise<AppConfig> => {
    const { data, error } = await api.GET("/config");
    if (error || !data) throw new Error("Configuration unavailable");
    return data.content;
  },
  staleTime: Infinity,
  gcTime: Infinity,
});

export function useAppConfig(): AppConfig {
  return useSuspenseQuery(appConfigQuery).data;
}
