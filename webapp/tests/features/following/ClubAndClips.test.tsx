import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import ClubPage from "@/features/following/pages/ClubPage";
import SelectedClipsPage from "@/features/following/pages/SelectedClipsPage";
import { sessionStore } from "@/session/store";
import { PROFILE, identity, json, page, renderPage, resetSession, setUpI18n, signIn, stubApi } from "./kit";

vi.mock("@/lib/notify", () => ({
  notify: { success: vi.fn(async () => undefined), danger: vi.fn(async () => undefined) },
}));

beforeAll(setUpI18n);
beforeEach(signIn);
afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

describe("ClubPage", () => {
  it("saves the club as '{type}|{id}' and continues where the viewer was going", async () => {
    const team = identity("b00000000000000000000001", "Harbor City Mariners", {
      media_type: "team",
      logo: "/media/logos/hcm.png",
      shortName: "HCM",
    });
    const api = stubApi({
      "POST /api/identity/list": () => json(page([team])),
      "POST /api/user/update_profile": () =>
        json({ error: false, message: "", content: { ...PROFILE, clubList: [`team|${team._id}`] } }),
    });
    const { router } = renderPage(ClubPage, { path: "/club/", url: "/club/?redirect=%2Flive" });
    const tile = (await screen.findByText("Harbor City Mariners")).closest("li")!;
    expect(tile.querySelector("img")!.getAttribute("src")).toBe("/media/logos/hcm.png");
    await userEvent.click(within(tile).getByRole("button", { name: "Choose Harbor City Mariners as your club" }));

    await waitFor(() => expect(router.state.location.pathname).toBe("/live"));
    expect(await api.callsTo("POST /api/user/update_profile")[0].json()).toEqual({
      data: { clubList: [`team|${team._id}`] },
    });
    expect(sessionStore.getState().user?.favoriteClubId).toBe(`team|${team._id}`);
  });
});

describe("SelectedClipsPage", () => {
  const clip = {
    _id: "d00000000000000000000001",
    title: "Great goal",
    media_type: "user_clip",
    event_id: "e00000000000000000000001",
    content: { PosterH: null, HLSStream: null },
  };

  it("lists the viewer's clips, renames and deletes them", async () => {
    const api = stubApi({
      "POST /api/clip/user_list": () => json(page([clip])),
      "POST /api/clip/update/d00000000000000000000001": () =>
        json({ error: false, message: "", content: { ...clip, title: "Best goal" } }),
      "POST /api/clip/delete/d00000000000000000000001": () => json({ error: false, message: "", content: null }),
    });
    renderPage(SelectedClipsPage, { path: "/selected/clips/", url: "/selected/clips/" });
    await userEvent.click(await screen.findByRole("button", { name: "Rename Great goal" }));
    const input = screen.getByLabelText("New title");
    await userEvent.clear(input);
    await userEvent.type(input, "Best goal");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(api.callsTo("POST /api/clip/update/d00000000000000000000001")).toHaveLength(1));
    expect(await api.callsTo("POST /api/clip/update/d00000000000000000000001")[0].json()).toEqual({
      title: "Best goal",
    });
    expect(api.callsTo("POST /api/clip/user_list").length).toBeGreaterThan(0);
  });
});
