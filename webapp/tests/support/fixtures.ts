import type { components } from "@/api/schema.gen";
import type { AppConfig } from "@/lib/config";
import { appConfigFixture } from "./appConfig";

type ApiEvent = components["schemas"]["Event"];
type ApiIdentity = components["schemas"]["Identity"];

/** A live game as the seeded server answers it. */
export function apiEvent(overrides: Partial<ApiEvent> = {}): ApiEvent {
  return {
    _id: "d2aefc184837b3fb7057f13a",
    title: "Ashford Town vs Port Sable Albion",
    description: "Northern Premier Division, round 7.",
    event_date: "2026-11-23T15:55:00Z",
    gameStartDate: "2026-11-23T15:58:00Z",
    endDate: null,
    event_id: "TL-EV-000005",
    reference_id: "ref-ashford-town-port-sable-albion-5",
    sportType: "football",
    media_type: "event",
    eventType: "game",
    gameType: "game",
    status: "live",
    commerce_type: "commerce_free_media",
    commerceType: [],
    gender: "male",
    availableForUser: true,
    availableInUserRegion: true,
    commerceCoverage: ["free"],
    integrations: { vidswap: { enabled: true, id: "vs-000005" } },
    content: {
      HLSStream: "/media/live/football/from-1795000000/index.m3u8?token=token",
      PanoStream: null,
      PosterH: "/media/posters/northern-premier-division.svg",
      MezzanineVideo: null,
      EPG: null,
    },
    eventTeams: {
      homeTeam: {
        teamId: "70e6dd179ad8f10284e10f4b",
        name: "Ashford Town",
        shortName: "ASH",
        logo: "/media/logos/ashford-town.svg",
        color: "#6cabdd",
      },
      awayTeam: {
        teamId: "4391e30622d95fee1b0c7021",
        name: "Port Sable Albion",
        shortName: "PSA",
        logo: "/media/logos/port-sable-albion.svg",
        color: "#004d40",
      },
    },
    mediaIdentities: [
      { _id: "8e812cbf4f122690fb37e27f", title: "Northern Premier Division", media_type: "identity_item" },
      { _id: "05ad661fd5da84121972f767", title: "Football", media_type: "identity" },
    ],
    advertisements: { link: { vast: null } },
    metaTitle: "Northern Premier Division•Football",
    type: null,
    startTime: null,
    endTime: null,
    duration: null,
    added: "2026-11-09T06:55:00Z",
    updated: "2026-11-09T06:55:00Z",
    ...overrides,
  };
}

/** A league (sub-category) as the seeded server answers it. */
export function apiLeague(overrides: Partial<ApiIdentity> = {}): ApiIdentity {
  return {
    _id: "6a796e495b27d266f6b95fa0",
    content: {
      PosterH: "/media/posters/coastal-basketball-league.svg",
      PosterF: "/media/posters/coastal-basketball-league.svg",
    },
    extendedContent: {
      PosterF: [
        {
          url: "/media/posters/coastal-basketball-league.svg",
          targetUrl: "/league/6a796e495b27d266f6b95fa0",
          target: "_self",
        },
      ],
      MobilePosterF: [],
    },
    socialMediasLinks: {
      facebook: "https://example.com/facebook/coastalbball",
      instagram: "https://example.com/instagram/coastalbball",
      twitter: "https://example.com/twitter/coastalbball",
      web: "https://coastalbball.example.com/",
    },
    mainCategories: ["da1615c0f704d0738be1abba"],
    media_parent_order: { da1615c0f704d0738be1abba: 1 },
    identityId: ["da1615c0f704d0738be1abba"],
    mediaParentIdentities: [{ _id: "da1615c0f704d0738be1abba", title: "Basketball", media_type: "identity" }],
    sportType: "basketball",
    title: "Coastal Basketball League",
    shortTitle: "CBL",
    order: 1,
    archived: false,
    media_type: "identity_item",
    gender: "male",
    ...overrides,
  };
}

export function pageOf<T>(entries: T[], nextExists = false) {
  return {
    content: {
      entryCount: entries.length,
      totalCount: null,
      itemsPerPage: 10,
      startIndex: 0,
      count: entries.length,
      nextExists,
      entries,
    },
    error: false,
    message: "",
  };
}

export function testConfig(options: Partial<AppConfig["options"]> = {}, overrides: Partial<AppConfig> = {}): AppConfig {
  return appConfigFixture({ ...overrides, options });
}
