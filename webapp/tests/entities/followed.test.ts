// @vitest-environment node
import { describe, expect, it } from "vitest";
import type { components } from "@/api/schema.gen";
import { mapFollowEntries, mapFollowedItem } from "@/entities/followed";

type Identity = components["schemas"]["Identity"];

const base: Identity = {
  _id: "7a1c0a8e2b3d4c5e6f7a8b9f",
  title: "Northern Premier Division",
  shortTitle: "NPD",
  order: 1,
  archived: false,
  media_type: "identity_item",
  mainCategories: ["7b1c0a8e2b3d4c5e6f7a8ba0"],
  media_parent_order: {},
  content: { PosterH: "/media/posters/npd.svg", PosterF: null },
  extendedContent: { PosterF: [], MobilePosterF: [] },
  identityId: ["7b1c0a8e2b3d4c5e6f7a8ba0"],
  socialMediasLinks: {},
  mediaParentIdentities: [],
};
const teamItem: Identity = {
  ...base,
  _id: "6a1c0a8e2b3d4c5e6f7a8b9d",
  title: "Harbor City Mariners",
  shortTitle: null,
  media_type: "team",
  shortName: "HCM",
  logo: "/media/logos/hcm.svg",
};

describe("the followed item mapper", () => {
  it("uses PosterH as the image of identity items and the logo for teams", () => {
    expect(mapFollowedItem(base, "identity_item", { teamsShortName: false })).toEqual({
      id: base._id,
      title: "Northern Premier Division",
      type: "identity_item",
      imageUrl: "/media/posters/npd.svg",
      identitiesId: ["7b1c0a8e2b3d4c5e6f7a8ba0"],
    });
    expect(mapFollowedItem(teamItem, "team", { teamsShortName: false }).imageUrl).toBe("/media/logos/hcm.svg");
  });

  it("uses the short title only when the teams-short-name option is on", () => {
    expect(mapFollowedItem(teamItem, "team", { teamsShortName: true }).title).toBe("HCM");
    expect(mapFollowedItem(teamItem, "team", { teamsShortName: false }).title).toBe("Harbor City Mariners");
    expect(mapFollowedItem(base, "identity_item", { teamsShortName: true }).title).toBe("NPD");
    expect(mapFollowedItem({ ...base, shortTitle: null }, "identity_item", { teamsShortName: true }).title).toBe(
      "Northern Premier Division",
    );
  });

  it("keys the session's followed map by item id", () => {
    const entry = (item: Identity, type: "team" | "identity_item") => ({
      _id: "2b1c0a8e2b3d4c5e6f7a8bd1",
      reference_id: item._id,
      type,
      added: "2026-10-02T09:20:00Z",
      item,
    });
    const followed = mapFollowEntries([entry(base, "identity_item"), entry(teamItem, "team")], {
      teamsShortName: false,
    });
    expect(Object.keys(followed)).toEqual([base._id, teamItem._id]);
    expect(followed[teamItem._id].type).toBe("team");
  });
});
