// @vitest-environment node
import { describe, expect, it } from "vitest";
import { belongsToCategory, mapIdentity, type SubCategory, type Team } from "@/entities/identity";
import { apiLeague } from "../support/fixtures";

describe("mapIdentity", () => {
  it("maps a sub-category with its parents and its order within each parent", () => {
    const league = mapIdentity(apiLeague()) as SubCategory;
    expect(league).toMatchObject({
      id: "6a796e495b27d266f6b95fa0",
      title: "Coastal Basketball League",
      shortTitle: "CBL",
      mediaType: "identity_item",
      order: 1,
      archived: false,
      mainCategories: ["da1615c0f704d0738be1abba"],
      parentOrder: { da1615c0f704d0738be1abba: 1 },
      identityIds: ["da1615c0f704d0738be1abba"],
      parents: [{ id: "da1615c0f704d0738be1abba", title: "Basketball", mediaType: "identity" }],
      posterH: "/media/posters/coastal-basketball-league.svg",
      posters: [
        {
          url: "/media/posters/coastal-basketball-league.svg",
          targetUrl: "/league/6a796e495b27d266f6b95fa0",
          target: "_self",
        },
      ],
      mobilePosters: [],
    });
    expect(belongsToCategory(league, "da1615c0f704d0738be1abba")).toBe(true);
    expect(belongsToCategory(league, "05ad661fd5da84121972f767")).toBe(false);
  });

  it("defaults a missing title to 'NO TITLE'", () => {
    expect(mapIdentity(apiLeague({ title: "", shortTitle: null })).title).toBe("NO TITLE");
  });

  it("lists social links in a fixed order, calls twitter X, and drops empty or non-web addresses", () => {
    const league = mapIdentity(
      apiLeague({
        socialMediasLinks: {
          twitter: "https://example.com/t",
          web: "https://x.example.com/",
          facebook: " ",
          instagram: "javascript:alert(1)",
        },
      }),
    );
    expect(league.socialLinks).toEqual([
      { kind: "x", url: "https://example.com/t" },
      { kind: "web", url: "https://x.example.com/" },
    ]);
  });

  it("maps a team with logo and colour, by short name with the teams-short-name option", () => {
    const api = apiLeague({
      media_type: "team",
      title: "Ashford Town",
      shortName: "ASH",
      logo: "/media/logos/ashford-town.svg",
      color: "#6cabdd",
    });
    expect(mapIdentity(api) as Team).toMatchObject({
      mediaType: "team",
      name: "Ashford Town",
      shortName: "ASH",
      logoUrl: "/media/logos/ashford-town.svg",
      color: "#6cabdd",
    });
    expect((mapIdentity(api, { teamsShortName: true }) as Team).name).toBe("ASH");
  });

  it("maps a main category without parent fields", () => {
    const category = mapIdentity(apiLeague({ media_type: "identity", title: "Basketball" }));
    expect(category.mediaType).toBe("identity");
    expect(category).not.toHaveProperty("mainCategories");
  });
});
