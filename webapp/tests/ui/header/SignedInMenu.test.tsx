import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { SignedInMenu } from "@/ui/header/SignedInMenu";
import { signIn, signOutQuietly } from "../../session/fakeServer";
import { renderWithApp, setUpI18n } from "../renderWithApp";

const MY_STUFF = [
  ["Watchlist", "/selected/videos"],
  ["My clips", "/selected/clips"],
  ["Following", "/following/league"],
  ["Recommendations", "/recommendation"],
  ["Favourite club", "/club"],
];

beforeAll(setUpI18n);
afterEach(signOutQuietly);

const menuButton = () => screen.getByRole("button", { name: /Ada Lovelace/ });

describe("SignedInMenu", () => {
  it("opens the viewer's own pages, Account and Log out", async () => {
    signIn();
    renderWithApp(<SignedInMenu />, { url: "/live" });

    expect(menuButton().getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByRole("link", { name: "Watchlist" })).toBeNull();
    await userEvent.click(menuButton());

    expect(menuButton().getAttribute("aria-expanded")).toBe("true");
    const myStuff = screen.getByRole("list", { name: "My stuff" });
    expect(
      within(myStuff)
        .getAllByRole("link")
        .map((link) => [link.textContent, link.getAttribute("href")]),
    ).toEqual(MY_STUFF);
    expect(screen.getByRole("link", { name: "Account" }).getAttribute("href")).toBe("/account");
    expect(screen.getByRole("button", { name: "Log out" })).toBeTruthy();
  });

  it("follows a link to its page and closes", async () => {
    signIn();
    const { router } = renderWithApp(<SignedInMenu />, { url: "/live" });
    await userEvent.click(menuButton());
    await userEvent.click(screen.getByRole("link", { name: "My clips" }));

    expect(router.state.location.pathname).toBe("/selected/clips");
    expect(menuButton().getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByRole("link", { name: "My clips" })).toBeNull();
  });

  it("keeps the page's locale in every link", async () => {
    signIn();
    renderWithApp(<SignedInMenu />, { url: "/de/live" });
    await userEvent.click(menuButton());
    expect(
      within(screen.getByRole("list", { name: "My stuff" }))
        .getAllByRole("link")
        .map((link) => link.getAttribute("href")),
    ).toEqual(MY_STUFF.map(([, path]) => `/de${path}`));
  });

  it("works from the keyboard: arrows open and walk the menu, Escape closes it and returns to the button", async () => {
    signIn();
    renderWithApp(<SignedInMenu />, { url: "/live" });
    const user = userEvent.setup();

    await user.tab();
    expect(document.activeElement).toBe(menuButton());
    await user.keyboard("{ArrowDown}");
    expect(menuButton().getAttribute("aria-expanded")).toBe("true");
    expect(document.activeElement).toBe(screen.getByRole("link", { name: "Watchlist" }));

    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(screen.getByRole("link", { name: "My clips" }));
    await user.keyboard("{End}");
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Log out" }));
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(screen.getByRole("link", { name: "Watchlist" }));
    await user.keyboard("{ArrowUp}");
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Log out" }));
    await user.keyboard("{Home}");
    expect(document.activeElement).toBe(screen.getByRole("link", { name: "Watchlist" }));
    // Tab reaches every item too.
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole("link", { name: "My clips" }));

    await user.keyboard("{Escape}");
    expect(menuButton().getAttribute("aria-expanded")).toBe("false");
    expect(document.activeElement).toBe(menuButton());

    await user.keyboard("{ArrowUp}");
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Log out" }));
  });
});
