import type { components } from "@/api/schema.gen";

/** A signed-in viewer's profile as the API answers it (no survey, no club, no identity). */
export const PROFILE: components["schemas"]["Profile"] = {
  userId: "5f1c0a8e2b3d4c5e6f7a8b01",
  added: "2026-01-01T00:00:00Z",
  email: "fan@touchline.test",
  displayName: "Fan One",
  city: null,
  gender: null,
  dateOfBirth: null,
  phone: null,
  countryName: null,
  postalCode: null,
  globalTags: false,
  clubList: [],
  options: {},
  identity: null,
  identityItem: null,
  role: "viewer",
} as components["schemas"]["Profile"];
