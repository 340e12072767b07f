import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { QueryClient } from "@tanstack/react-query";
import { appConfigFixture } from "../support/appConfig";
import { apiEvent, apiLeague, pageOf } from "../support/fixtures";
import { fakeServer, ok, signOutQuietly } from "../session/fakeServer";
import shared from "./firstViewRequests.json";

// The server answers these in the page (server/first_view.py); the server's tests hold its side
// to the same file.
const CONFIG = appConfigFixture();
const LIVE = apiEvent();
const LEAGUE = apiLeague();

interface Entry {
  request: { method: string; path: string; query?: Record<string, string>; body?: unknown };
  answer: unknown;
}

/** The page's data block as the server writes it, answering `entries`. */
function pageCarries(entries: Entry[]): void {
  const block = document.createElement("script");
  block.type = "application/json";
  block.id = "first-answers";
  block.textContent = JSON.stringify(entries);
  document.body.append(block);
}

function homeAnswers() {
  return [
    { request: shared.config, answer: { content: CONFIG, error: false, message: "" } },
    ...shared.home.map((request) => ({
      request,
      answer: { ...(request.path === "/identity/list" ? pageOf([LEAGUE]) : pageOf([LIVE])), error: false, message: "" },
    })),
  ];
}

/** The app's modules afresh: the page's block is read once, at the first call. */
async function app() {
  vi.resetModules();
  const [homeRails, listEvents, listClips, listIdentities, viewer, prefetchEvent, getEvent, config, authorization] =
    await Promise.all([
      import("@/features/catalog/homeRails"),
      import("@/features/catalog/api/listEvents"),
      import("@/session/catalog/listClips"),
      import("@/features/catalog/api/listIdentities"),
      import("@/session/catalog/viewer"),
      import("@/features/watching/api/prefetchEvent"),
      import("@/features/watching/api/getEvent"),
      import("@/lib/config"),
      import("@/session/authorization"),
    ]);
  authorization.authorizeApiCalls();
  const session = await import("../session/fakeServer");
  return { homeRails, listEvents, listClips, listIdentities, viewer, prefetchEvent, getEvent, config, session };
}

const settled = (queryClient: QueryClient) => vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));

beforeEach(() => signOutQuietly());

afterEach(() => {
  document.getElementById("first-answers")?.remove();
  vi.unstubAllGlobals();
});

describe("the first page's answers in the page", () => {
  it("fill the home page's queries under the keys the page reads, without a request", async () => {
    pageCarries(homeAnswers());
    const { homeRails, listEvents, listClips, listIdentities, viewer, config, session } = await app();
    session.signOutQuietly();
    const server = fakeServer({});
    const queryClient = new QueryClient();
    await queryClient.ensureQueryData(config.appConfigQuery);
    homeRails.prefetchHomeRails(queryClient, CONFIG, "guest");
    await settled(queryClient);

    expect(server.calls).toEqual([]);
    expect(queryClient.getQueryData(config.appConfigQuery.queryKey)).toEqual(CONFIG);
    const options = viewer.eventMapOptionsOf(CONFIG);
    for (const params of Object.values(homeRails.HOME_RAILS)) {
      const rail = queryClient.getQueryState(listEvents.eventListQueryOptions(params, "guest", options).queryKey);
      expect(rail?.status).toBe("success");
      expect(rail?.data?.entries.map((event) => event.id)).toEqual([LIVE._id]);
    }
    const highlights = listClips.clipListQueryOptions(homeRails.HOME_HIGHLIGHTS, "guest", options);
    expect(queryClient.getQueryData(highlights.queryKey)?.entries).toHaveLength(1);
    const leagues = listIdentities.identityListQueryOptions(homeRails.HOME_LEAGUES, { teamsShortName: false });
    expect(queryClient.getQueryData(leagues.queryKey)?.entries.map((league) => league.id)).toEqual([LEAGUE._id]);

    // Once: the next time the rails are asked for, the API answers.
    await queryClient.refetchQueries();
    expect(server.calls.map((call) => call.path)).toContain("/event/list");
  });

  it("are the answers to the very requests the app makes", async () => {
    const { homeRails, prefetchEvent, session } = await app();
    session.signOutQuietly();
    const server = fakeServer({});
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    homeRails.prefetchHomeRails(queryClient, CONFIG, "guest");
    const url = (path: string) => new URL(`https://touchline.test${path}`);
    prefetchEvent.prefetchEventAnswer(queryClient, CONFIG, "guest", "EVENT_ID", url("/events/EVENT_ID"));
    prefetchEvent.prefetchEventAnswer(
      queryClient,
      CONFIG,
      "guest",
      "EVENT_ID",
      url("/events/EVENT_ID?media_type=highlight"),
    );
    await settled(queryClient);
    const made = server.calls.map(({ method, path, body }) => {
      const [route, search] = path.split("?");
      const query = search ? Object.fromEntries(new URLSearchParams(search)) : undefined;
      return JSON.parse(JSON.stringify({ method, path: route, query, body })) as unknown;
    });
    const expected = [...shared.home, shared.event, shared.highlight];
    expect(made).toHaveLength(expected.length);
    expect(made).toEqual(expect.arrayContaining(expected));
  });

  it("are never used for a signed-in viewer's calls (they are anonymous), but for public ones", async () => {
    pageCarries(homeAnswers());
    const { homeRails, session } = await app();
    session.signIn();
    const server = fakeServer({ "POST /event/list": () => ok(pageOf([])), "POST /clip/list": () => ok(pageOf([])) });
    const queryClient = new QueryClient();
    homeRails.prefetchHomeRails(queryClient, CONFIG, "viewer");
    await settled(queryClient);
    expect(server.calls.map((call) => call.path).sort()).toEqual([
      "/clip/list",
      "/event/list",
      "/event/list",
      "/event/list",
      "/event/list",
    ]);
    expect(new Set(server.calls.map((call) => call.authorization))).toEqual(new Set(["Bearer access-1"]));
  });

  it("match a request whatever the order of its body's members", async () => {
    const request = { method: "POST", path: "/event/list", body: { b: [1, { y: 2, x: 1 }], a: "z" } };
    pageCarries([{ request, answer: { content: "from the page" } }]);
    const { session } = await app();
    session.signOutQuietly();
    const { firstAnswer } = await import("@/api/firstAnswers");
    const asked = (body: string) =>
      new Request("http://localhost/api/event/list", { method: "POST", body, headers: { "Content-Type": "x" } });
    expect(await firstAnswer(asked('{"a":"z","b":[1,{"x":1,"y":2}],"c":1}'))).toBeUndefined();
    const answer = await firstAnswer(asked('{"a":"z","b":[1,{"x":1,"y":2}]}'));
    expect(await answer?.json()).toEqual({ content: "from the page" });
    expect(await firstAnswer(asked('{"a":"z","b":[1,{"x":1,"y":2}]}'))).toBeUndefined();
  });

  it("leave every call to the API when the page has none, or an unreadable block", async () => {
    const block = document.createElement("script");
    block.type = "application/json";
    block.id = "first-answers";
    block.textContent = "[{not json";
    document.body.append(block);
    const { config } = await app();
    const server = fakeServer({ "GET /config": () => ok(CONFIG) });
    await expect(new QueryClient().ensureQueryData(config.appConfigQuery)).resolves.toEqual(CONFIG);
    expect(server.callsTo("/config")).toHaveLength(1);
  });
});
