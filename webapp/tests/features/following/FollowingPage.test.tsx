import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import FollowingPage from "@/features/following/pages/FollowingPage";
import { notify } from "@/lib/notify";
import { sessionStore } from "@/session/store";
import { appConfigFixture } from "../../support/appConfig";
import { identity, json, page, renderPage, resetSession, setUpI18n, signIn, stubApi } from "./kit";

vi.mock("@/lib/notify", () => ({
  notify: { success: vi.fn(async () => undefined), danger: vi.fn(async () => undefined) },
}));

const NORTH = identity("a00000000000000000000001", "Northern Premier Division", { shortTitle: "NPD" });
const SOUTH = identity("a00000000000000000000002", "Southern Championship", { shortTitle: "SCH" });

function followEntry(item: typeof NORTH) {
  return {
    _id: "f00000000000000000000001",
    reference_id: item._id,
    type: "identity_item",
    added: "2026-11-01T00:00:00Z",
    item,
  };
}

beforeAll(setUpI18n);
beforeEach(signIn);
afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

const leagues = { path: "/following/league/", url: "/following/league/", name: "following-league" };

describe("FollowingPage", () => {
  it("lists the leagues with their poster and follows one at once, keeping the server's item", async () => {
    let release: () => void = () => undefined;
    const api = stubApi({
      "POST /api/identity/list": () => json(page([NORTH, SOUTH])),
      "GET /api/follow/list_by_user": () => json(page([])),
      "POST /api/follow/save": () =>
        new Promise((resolve) => {
          release = () => resolve(json({ error: false, message: "", content: followEntry(NORTH) }));
        }),
    });
    renderPage(FollowingPage, leagues);

    const list = await screen.findByRole("list", { name: "Leagues" });
    const tile = within(list).getByText("Northern Premier Division").closest("li")!;
    expect(tile.querySelector("img")!.getAttribute("src")).toBe(`/media/posters/${NORTH._id}.png`);
    const button = within(tile).getByRole("button", { name: "Follow Northern Premier Division" });
    await userEvent.click(button);

    // Optimistic: followed before the server answers.
    expect(sessionStore.getState().followed[NORTH._id]?.title).toBe("Northern Premier Division");
    expect(
      within(tile).getByRole("button", { name: "Unfollow Northern Premier Division" }).getAttribute("aria-pressed"),
    ).toBe("true");
    release();
    await waitFor(() => expect(api.callsTo("POST /api/follow/save")).toHaveLength(1));
    expect(await api.callsTo("POST /api/follow/save")[0].json()).toEqual({
      reference_id: NORTH._id,
      type: "identity_item",
    });
    await waitFor(() =>
      expect(sessionStore.getState().followed[NORTH._id]?.identitiesId).toEqual(["c00000000000000000000001"]),
    );
  });

  it("shows short titles with the teams-short-name option", async () => {
    stubApi({
      "POST /api/identity/list": () => json(page([NORTH])),
      "GET /api/follow/list_by_user": () => json(page([])),
    });
    renderPage(FollowingPage, { ...leagues, config: appConfigFixture({ options: { teams_short_name: true } }) });
    expect(await screen.findByText("NPD")).toBeTruthy();
  });

  it("puts an unfollow back and says so when the server refuses", async () => {
    stubApi({
      "POST /api/identity/list": () => json(page([NORTH, SOUTH])),
      "GET /api/follow/list_by_user": () => json(page([followEntry(NORTH)])),
      "POST /api/follow/remove_by_reference": () =>
        json({ error: true, message: "Server down", messageErrorCode: "internal_error" }, 500),
    });
    renderPage(FollowingPage, leagues);
    const button = await screen.findByRole("button", { name: "Unfollow Northern Premier Division" });
    await userEvent.click(button);
    await waitFor(() =>
      expect(notify.danger).toHaveBeenCalledWith("Could not unfollow Northern Premier Division.", expect.anything()),
    );
    expect(sessionStore.getState().followed[NORTH._id]).toBeTruthy();
    expect(screen.getByRole("button", { name: "Unfollow Northern Premier Division" })).toBeTruthy();
  });

  it("shows only the followed items on the followed page", async () => {
    stubApi({
      "POST /api/identity/list": () => json(page([NORTH, SOUTH])),
      "GET /api/follow/list_by_user": () => json(page([followEntry(SOUTH)])),
    });
    renderPage(FollowingPage, {
      path: "/following/league/followed/",
      url: "/following/league/followed/",
      name: "following-league-followed",
    });
    const list = await screen.findByRole("list", { name: "Followed: Leagues" });
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(1));
    expect(within(list).getByText("Southern Championship")).toBeTruthy();
  });
});
