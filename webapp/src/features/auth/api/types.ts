import type { components } from "@/api/schema.gen";

export type LoginResponse = components["schemas"]["LoginResponse"];
export type DeviceInfo = components["schemas"]["DeviceInfo"];
export type SignInProvider = components["schemas"]["SignInProvider"];
export type FederatedProvider = Exclude<SignInProvider, "credentials">;
export type ProviderEntry = components["schemas"]["ProviderListResponse"]["content"]["providers"][number];

/** The only token strategy (spec §7): an access token plus a rotating refresh token. */
export const STRATEGY = "refresh" as const;
