import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { useAppConfig, type AppConfig } from "@/lib/config";
import type { FederatedProvider, ProviderEntry } from "./types";

/** GET /oauth2/providers: the sign-on providers the server has configured and how to start them. */
export const providersQueryOptions = queryOptions({
  queryKey: ["oauth2", "providers"],
  queryFn: async () => (await unwrap(api.GET("/oauth2/providers"))).content,
  staleTime: 5 * 60_000,
});

const CONFIG_FLAG: Record<FederatedProvider, keyof AppConfig["app_config"]> = {
  facebook: "enable_auth_via_facebook",
  apple: "enable_auth_via_apple",
  google: "enable_auth_via_google",
  ifa: "enable_auth_via_ifa",
};

/** A provider is offered when the server lists it (so it is configured) and the tenant's flag is on. */
export function offeredProviders(listed: readonly ProviderEntry[], config: AppConfig): ProviderEntry[] {
  return listed.filter((entry) => config.app_config[CONFIG_FLAG[entry.provider]] === true && !!entry.client_id);
}

/** The sign-in buttons to show; none while the list loads or when it fails (credentials still work). */
export function useOfferedProviders(): { providers: ProviderEntry[]; isLoading: boolean } {
  const config = useAppConfig();
  const { data, isLoading } = useQuery(providersQueryOptions);
  return { providers: data ? offeredProviders(data.providers, config) : [], isLoading };
}
