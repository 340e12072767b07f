import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { api, unwrap } from "@/api/client";
import {
  hideScoresAgain,
  hideSpoilersInCalls,
  revealScores,
  setSpoilerFree,
  spoilerFree,
  SPOILER_OPERATIONS,
} from "@/session/spoilers";
import { sessionStore } from "@/session/store";
import { API_PROFILE, fakeServer, ok, signIn, signOutQuietly, USER } from "./fakeServer";

vi.mock("@/lib/navigation", () => ({ navigateTo: vi.fn(), registerNavigator: vi.fn() }));

const EVENT = "d2aefc184837b3fb7057f13a";
const queries = new QueryClient();

beforeAll(() => hideSpoilersInCalls(queries));
beforeEach(async () => {
  signOutQuietly();
  await setSpoilerFree(false);
  hideScoresAgain(EVENT);
});
afterEach(() => vi.unstubAllGlobals());

const listing = () => fakeServer({ "POST /event/list": () => ok({ entries: [] }), "GET /config": () => ok({}) });
const list = () =>
  unwrap(api.POST("/event/list", { body: { page: 0, size: 12, next: true, count: false, sort: "event_date" } }));

describe("spoiler-free mode's calls", () => {
  it("ask for answers without scores while it is on, and only then", async () => {
    const server = listing();
    await list();
    await setSpoilerFree(true);
    await list();
    expect(server.calls.map((call) => call.path)).toEqual(["/event/list", "/event/list?spoilers=hide"]);
  });

  it("leave calls that carry no score as they are", async () => {
    await setSpoilerFree(true);
    const server = listing();
    await unwrap(api.GET("/config"));
    expect(server.calls[0].path).toBe("/config");
    expect(SPOILER_OPERATIONS.has("/config")).toBe(false);
  });

  it("ask with the score for an event the viewer chose to see, and without it again after Hide score", async () => {
    await setSpoilerFree(true);
    const server = fakeServer({
      "GET /event/get_by_id/id/{id}": () => ok({}),
      [`GET /event/get_by_id/id/${EVENT}`]: () => ok({}),
    });
    const get = () => api.GET("/event/get_by_id/id/{id}", { params: { path: { id: EVENT } } });
    await get();
    revealScores(EVENT);
    await get();
    hideScoresAgain(EVENT);
    await get();
    expect(server.calls.map((call) => call.path)).toEqual([
      `/event/get_by_id/id/${EVENT}?spoilers=hide`,
      `/event/get_by_id/id/${EVENT}`,
      `/event/get_by_id/id/${EVENT}?spoilers=hide`,
    ]);
  });
});

describe("turning spoiler-free mode on", () => {
  it("keeps it in this browser and in the cookie the server reads for the first view", async () => {
    await setSpoilerFree(true);
    expect(localStorage.getItem("spoiler-free")).toBe("on");
    expect(document.cookie).toContain("tl_spoilers=hide");
    await setSpoilerFree(false);
    expect(localStorage.getItem("spoiler-free")).toBeNull();
    expect(document.cookie).not.toContain("tl_spoilers");
  });

  it("drops the answers cached in the other mode", async () => {
    queries.setQueryData(["events", "live"], { entries: ["with a score"] });
    await setSpoilerFree(true);
    expect(queries.getQueryData(["events", "live"])).toBeUndefined();
  });

  it("is kept with the account of a signed-in viewer", async () => {
    signIn();
    sessionStore.setState({ user: USER });
    const server = fakeServer({
      "POST /user/update_profile": () => ok({ ...API_PROFILE, options: { spoilerFree: true } }),
    });
    await setSpoilerFree(true);
    expect(server.calls[0].body).toEqual({ data: { options: { spoilerFree: true } } });
    expect(sessionStore.getState().user?.spoilerFree).toBe(true);
  });

  it("follows the account's choice when the profile arrives", () => {
    expect(spoilerFree()).toBe(false);
    sessionStore.setState({ user: { ...USER, spoilerFree: true } });
    expect(spoilerFree()).toBe(true);
    sessionStore.setState({ user: { ...USER, spoilerFree: null } });
    expect(spoilerFree()).toBe(true); // never chosen there: this browser's choice stands
  });
});
