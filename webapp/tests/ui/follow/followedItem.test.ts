// @vitest-environment node
import { describe, expect, it } from "vitest";
import { mapIdentity } from "@/entities/identity";
import { followedItemOf } from "@/ui/follow/followedItem";
import { apiLeague } from "../../support/fixtures";

describe("followedItemOf", () => {
  it("follows a league as an identity_item with its poster and categories", () => {
    expect(followedItemOf(mapIdentity(apiLeague()))).toEqual({
      id: "6a796e495b27d266f6b95fa0",
      title: "Coastal Basketball League",
      type: "identity_item",
      imageUrl: "/media/posters/coastal-basketball-league.svg",
      identitiesId: ["da1615c0f704d0738be1abba"],
    });
  });

  it("follows a main category as an identity, belonging to no other category", () => {
    const sport = mapIdentity(
      apiLeague({ _id: "da1615c0f704d0738be1abba", title: "Basketball", media_type: "identity" }),
    );
    expect(followedItemOf(sport)).toMatchObject({ id: "da1615c0f704d0738be1abba", type: "identity", identitiesId: [] });
  });

  it("follows a team with its logo, under the name the app shows (the short one with that option)", () => {
    const api = apiLeague({
      _id: "70e6dd179ad8f10284e10f4b",
      title: "Ashford Town",
      shortName: "ASH",
      media_type: "team",
      logo: "/media/logos/ashford-town.svg",
    });
    expect(followedItemOf(mapIdentity(api))).toMatchObject({
      type: "team",
      title: "Ashford Town",
      imageUrl: "/media/logos/ashford-town.svg",
    });
    expect(followedItemOf(mapIdentity(api, { teamsShortName: true })).title).toBe("ASH");
  });
});
