import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { components } from "@/api/schema.gen";
import type { FollowedItem } from "@/entities/followed";
import { notify } from "@/lib/notify";
import { sessionStore } from "@/session/store";
import { FollowButton } from "@/ui/follow/FollowButton";
import { apiLeague } from "../../support/fixtures";
import { failure, fakeServer, ok, signIn, signOutQuietly } from "../../session/fakeServer";
import { renderWithApp, setUpI18n } from "../renderWithApp";

vi.mock("@/lib/notify", () => ({
  notify: { success: vi.fn(async () => undefined), danger: vi.fn(async () => undefined) },
}));

const TEAM_ID = "70e6dd179ad8f10284e10f4b";
const TEAM: FollowedItem = {
  id: TEAM_ID,
  title: "Ashford Town",
  type: "team",
  imageUrl: "/media/logos/ashford-town.svg",
  identitiesId: [],
};

/** The server's follow of the team: it knows the team's leagues, which the page did not. */
function savedTeam(): components["schemas"]["FollowEntry"] {
  return {
    _id: "f00000000000000000000001",
    reference_id: TEAM_ID,
    type: "team",
    added: "2026-11-28T06:00:00Z",
    item: apiLeague({
      _id: TEAM_ID,
      title: "Ashford Town",
      media_type: "team",
      logo: "/media/logos/ashford-town.svg",
      identityId: ["8e812cbf4f122690fb37e27f"],
    }),
  };
}

const teamPage = { url: `/team/${TEAM_ID}?tab=games`, path: "/team/:teamId" };

beforeAll(setUpI18n);
afterEach(() => {
  signOutQuietly();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe("FollowButton", () => {
  it("follows at once when pressed, then keeps the server's item in the session", async () => {
    signIn();
    let answer: (response: Response) => void = () => undefined;
    const server = fakeServer({
      "POST /follow/save": () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderWithApp(<FollowButton item={TEAM} />, teamPage);

    const button = screen.getByRole("button", { name: "Follow Ashford Town" });
    expect(button.getAttribute("aria-pressed")).toBe("false");
    expect(button.textContent).toBe("Follow");
    await userEvent.click(button);

    // Optimistic: pressed, and in the session, before the server answers.
    const pressed = screen.getByRole("button", { name: "Unfollow Ashford Town" });
    expect(pressed.getAttribute("aria-pressed")).toBe("true");
    expect(pressed.textContent).toBe("Following");
    expect(pressed.className).toContain("btn--primary");
    expect(sessionStore.getState().followed[TEAM_ID]).toEqual(TEAM);
    await waitFor(() =>
      expect(server.callsTo("/follow/save")[0]?.body).toEqual({ reference_id: TEAM_ID, type: "team" }),
    );

    answer(ok(savedTeam()));
    await waitFor(() =>
      expect(sessionStore.getState().followed[TEAM_ID]?.identitiesId).toEqual(["8e812cbf4f122690fb37e27f"]),
    );
    expect(notify.danger).not.toHaveBeenCalled();
  });

  it("unfollows what the session follows", async () => {
    signIn();
    sessionStore.setState({ followed: { [TEAM_ID]: TEAM } });
    const server = fakeServer({ "POST /follow/remove_by_reference": () => ok(null) });
    renderWithApp(<FollowButton item={TEAM} />, teamPage);

    await userEvent.click(screen.getByRole("button", { name: "Unfollow Ashford Town" }));

    expect(screen.getByRole("button", { name: "Follow Ashford Town" }).getAttribute("aria-pressed")).toBe("false");
    expect(sessionStore.getState().followed).toEqual({});
    await waitFor(() => expect(server.callsTo("/follow/remove_by_reference")[0]?.body).toEqual({ id: TEAM_ID }));
  });

  it("puts a refused follow back and says why in a toast", async () => {
    signIn();
    fakeServer({
      "POST /follow/save": () => failure(409, "follow_limit_reached", "You follow too many items (at most 150)"),
    });
    renderWithApp(<FollowButton item={TEAM} />, teamPage);

    await userEvent.click(screen.getByRole("button", { name: "Follow Ashford Town" }));

    await waitFor(() =>
      expect(notify.danger).toHaveBeenCalledWith("Could not follow Ashford Town.", {
        description: "You follow as many items as allowed. Unfollow something first.",
      }),
    );
    expect(sessionStore.getState().followed).toEqual({});
    expect(screen.getByRole("button", { name: "Follow Ashford Town" }).getAttribute("aria-pressed")).toBe("false");
  });

  it("asks an anonymous viewer to sign in, and brings them back to the page", async () => {
    const server = fakeServer({});
    const { router } = renderWithApp(<FollowButton item={TEAM} />, teamPage);

    const link = screen.getByRole("link", { name: "Sign in to follow Ashford Town" });
    expect(link.getAttribute("href")).toBe(`/auth/login/?redirect=${encodeURIComponent(`/team/${TEAM_ID}?tab=games`)}`);
    expect(screen.queryByRole("button")).toBeNull();
    await userEvent.click(link);
    expect(router.state.location.pathname).toBe("/auth/login/");
    expect(server.calls).toHaveLength(0);
  });

  it("keeps the locale of the page in the sign-in link", async () => {
    fakeServer({});
    renderWithApp(<FollowButton item={TEAM} />, { url: `/de/team/${TEAM_ID}`, path: "/de/team/:teamId" });
    expect(screen.getByRole("link").getAttribute("href")).toBe(
      `/de/auth/login/?redirect=${encodeURIComponent(`/team/${TEAM_ID}`)}`,
    );
  });
});
