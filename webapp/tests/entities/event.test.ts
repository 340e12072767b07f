// @vitest-environment node
import { describe, expect, it } from "vitest";
import { accessOf, eventPath, mapEvent, toEventPageModel, type EventMapOptions } from "@/entities/event";
import { apiEvent } from "../support/fixtures";

const OPTIONS: EventMapOptions = {
  realKickoff: false,
  teamsShortName: false,
  leaguesView: true,
  genderClassification: false,
};

describe("mapEvent", () => {
  it("renames the API fields to the UI's (_id -> id, event_id -> eventId, reference_id -> referenceId)", () => {
    const event = mapEvent(apiEvent(), OPTIONS);
    expect(event).toMatchObject({
      id: "d2aefc184837b3fb7057f13a",
      eventId: "TL-EV-000005",
      referenceId: "ref-ashford-town-port-sable-albion-5",
      status: "live",
      isLive: true,
      posterUrl: "/media/posters/northern-premier-division.svg",
      league: { id: "8e812cbf4f122690fb37e27f", title: "Northern Premier Division", kind: "identity_item" },
      category: { id: "05ad661fd5da84121972f767", title: "Football", kind: "identity" },
    });
  });

  it("uses event_date, or gameStartDate when the real-kickoff option is on", () => {
    expect(mapEvent(apiEvent(), OPTIONS).startsAt.toISOString()).toBe("2026-11-23T15:55:00.000Z");
    expect(mapEvent(apiEvent(), { ...OPTIONS, realKickoff: true }).startsAt.toISOString()).toBe(
      "2026-11-23T15:58:00.000Z",
    );
    expect(mapEvent(apiEvent({ gameStartDate: null }), { ...OPTIONS, realKickoff: true }).startsAt.toISOString()).toBe(
      "2026-11-23T15:55:00.000Z",
    );
  });

  it("maps home and away teams with logos and colours, by short name with the teams-short-name option", () => {
    const { teams } = mapEvent(apiEvent(), OPTIONS);
    expect(teams?.home).toEqual({
      id: "70e6dd179ad8f10284e10f4b",
      name: "Ashford Town",
      fullName: "Ashford Town",
      shortName: "ASH",
      logoUrl: "/media/logos/ashford-town.svg",
      color: "#6cabdd",
    });
    expect(mapEvent(apiEvent(), { ...OPTIONS, teamsShortName: true }).teams?.away.name).toBe("PSA");
  });

  it("has no teams when gameType is other", () => {
    expect(mapEvent(apiEvent({ gameType: "other" }), OPTIONS).teams).toBeNull();
  });

  it("gives 'league•category' as metaTitle only with the leagues view on and teams present", () => {
    expect(mapEvent(apiEvent({ metaTitle: null }), OPTIONS).metaTitle).toBe("Northern Premier Division•Football");
    expect(mapEvent(apiEvent(), { ...OPTIONS, leaguesView: false }).metaTitle).toBeNull();
    expect(mapEvent(apiEvent({ gameType: "other" }), OPTIONS).metaTitle).toBeNull();
  });

  it("shows the gender only with the gender-classification option", () => {
    expect(mapEvent(apiEvent(), OPTIONS).gender).toBeNull();
    expect(mapEvent(apiEvent(), { ...OPTIONS, genderClassification: true }).gender).toBe("male");
  });

  it("defaults a missing title to 'NO TITLE'", () => {
    expect(mapEvent(apiEvent({ title: "" }), OPTIONS).title).toBe("NO TITLE");
  });

  it("marks external events and channels", () => {
    expect(mapEvent(apiEvent({ eventType: "externalContent" }), OPTIONS).isExternal).toBe(true);
    expect(mapEvent(apiEvent({ status: "channel", eventType: "channel" }), OPTIONS).isChannel).toBe(true);
  });

  it("tells a live feed that is away, and none when the API names none", () => {
    expect(mapEvent(apiEvent({ liveFeed: "interrupted" }), OPTIONS).liveFeed).toBe("interrupted");
    expect(mapEvent(apiEvent({ liveFeed: "reconnecting" }), OPTIONS).liveFeed).toBe("reconnecting");
    expect(mapEvent(apiEvent(), OPTIONS).liveFeed).toBeNull();
  });

  it("always makes a viewer's own clips available to them", () => {
    const clip = mapEvent(apiEvent({ media_type: "user_clip", availableForUser: false }), OPTIONS);
    expect(clip.isAvailableForUser).toBe(true);
    expect(mapEvent(apiEvent({ availableForUser: false }), OPTIONS).isAvailableForUser).toBe(false);
  });
});

describe("eventPath", () => {
  it("links events to /events/{id} and highlights to the same page with their media type", () => {
    expect(eventPath(mapEvent(apiEvent(), OPTIONS))).toBe("/events/d2aefc184837b3fb7057f13a");
    expect(eventPath(mapEvent(apiEvent({ _id: "6191dd3e9543ec5980ab6fa6", media_type: "highlight" }), OPTIONS))).toBe(
      "/events/6191dd3e9543ec5980ab6fa6?media_type=highlight",
    );
  });

  it("links channels to their programme page, /channels/{id}", () => {
    expect(eventPath(mapEvent(apiEvent({ _id: "c0ffee0000000000000000aa", status: "channel" }), OPTIONS))).toBe(
      "/channels/c0ffee0000000000000000aa",
    );
  });
});

describe("toEventPageModel", () => {
  it("gives the event page its fields (spec §3 'Event as used by the event page')", () => {
    const model = toEventPageModel(
      mapEvent(apiEvent({ commerceCoverage: ["ppv", "subscription"], availableForUser: false }), OPTIONS),
    );
    expect(model).toEqual({
      id: "d2aefc184837b3fb7057f13a",
      eventId: "TL-EV-000005",
      referenceId: "ref-ashford-town-port-sable-albion-5",
      eventType: "game",
      eventStatus: "live",
      commerceCoverage: ["ppv", "subscription"],
      isEventAvailableForUser: false,
      isEventAvailableInUserRegion: true,
      isEnabledVidswapStats: true,
      source: { epg: null, hd: "/media/live/football/from-1795000000/index.m3u8?token=token" },
    });
  });
});

describe("accessOf", () => {
  it("says what stands between the viewer and the video", () => {
    expect(accessOf(mapEvent(apiEvent(), OPTIONS))).toEqual({ kind: "available" });
    expect(accessOf(mapEvent(apiEvent({ availableForUser: false, availableInUserRegion: false }), OPTIONS))).toEqual({
      kind: "region",
    });
    expect(
      accessOf(
        mapEvent(apiEvent({ availableForUser: false, commerceCoverage: ["ppv"], commerceType: ["ppv"] }), OPTIONS),
      ),
    ).toEqual({ kind: "locked", via: "ppv" });
    expect(
      accessOf(
        mapEvent(
          apiEvent({ availableForUser: false, commerceCoverage: ["subscription"], commerceType: ["svod"] }),
          OPTIONS,
        ),
      ),
    ).toEqual({
      kind: "locked",
      via: "subscription",
    });
  });
});
