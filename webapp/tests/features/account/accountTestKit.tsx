import { act } from "@testing-library/react";
import type { components } from "@/api/schema.gen";
import { mapUserProfile, type UserProfile } from "@/entities/user";
import { emptySession, sessionStore } from "@/session/store";
import { json } from "../../support/fetchStub";

export { json, stubApi } from "../../support/fetchStub";

export type ApiProfile = components["schemas"]["Profile"];
type ApiDevice = components["schemas"]["Device"];

export const PROFILE: ApiProfile = {
  userId: "5f1c0a8e2b3d4c5e6f7a8b01",
  added: "2025-03-02T10:00:00Z",
  email: "fan@touchline.test",
  displayName: "Alex Fan",
  city: "Leeds",
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
};

/** A signed-in viewer whose access token is fresh: calls carry it without refreshing. */
export function signIn(profile: Partial<UserProfile> = {}): UserProfile {
  const user = { ...mapUserProfile(PROFILE), ...profile };
  const now = Date.now();
  act(() =>
    sessionStore.setState({
      user,
      token: "access-token",
      userTokenData: {
        token: "access-token",
        tokenUpdateTime: now,
        tokenExpirationTime: now + 900_000,
        refreshToken: "refresh-token",
      },
    }),
  );
  return user;
}

export function signOut(): void {
  act(() => sessionStore.setState(emptySession()));
}

export const ok = (content: unknown) => json({ content, error: false, message: "" });
export const failure = (status: number, messageErrorCode: string, message: string, details?: unknown) =>
  json({ error: true, message, messageErrorCode, ...(details ? { details } : {}) }, status);

export function device(id: string, deviceId: string, updated = "2026-11-20T18:00:00Z"): ApiDevice {
  return {
    _id: id,
    added: "2026-10-01T10:00:00Z",
    updated,
    deviceId,
    deviceName: deviceId,
    osName: "Linux",
    osVersion: null,
  };
}

/** An /identity/list entry: a main category ("identity") or a sub-category ("identity_item"). */
export function category(id: string, title: string, parentId?: string) {
  return {
    _id: id,
    title,
    shortTitle: null,
    order: 0,
    archived: false,
    media_type: parentId ? "identity_item" : "identity",
    content: {},
    extendedContent: {},
    socialMediasLinks: {},
    mediaParentIdentities: parentId ? [{ _id: parentId, title: "Parent", media_type: "identity" }] : [],
    identityId: parentId ? [parentId] : [],
    mainCategories: parentId ? [parentId] : [],
    media_parent_order: parentId ? { [parentId]: 0 } : {},
  };
}

/** /identity/list answering two sports, and two leagues of the first. */
export async function categoryList(request: Request): Promise<Response> {
  const body = (await request.json()) as { filters: { media_type: string; identityId?: string } };
  const entries =
    body.filters.media_type === "identity"
      ? [category("5f1c0a8e2b3d4c5e6f7a8c01", "Football"), category("5f1c0a8e2b3d4c5e6f7a8c02", "Basketball")]
      : body.filters.identityId === "5f1c0a8e2b3d4c5e6f7a8c01"
        ? [
            category("5f1c0a8e2b3d4c5e6f7a8d01", "Northern Premier Division", "5f1c0a8e2b3d4c5e6f7a8c01"),
            category("5f1c0a8e2b3d4c5e6f7a8d02", "Southern League", "5f1c0a8e2b3d4c5e6f7a8c01"),
          ]
        : [];
  return ok({
    entryCount: entries.length,
    totalCount: entries.length,
    itemsPerPage: 100,
    startIndex: 0,
    count: entries.length,
    nextExists: false,
    entries,
  });
}
