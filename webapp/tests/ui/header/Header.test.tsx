import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Header } from "@/ui/header/Header";
import { signIn, signOutQuietly } from "../../session/fakeServer";
import { renderWithApp, setUpI18n } from "../renderWithApp";

beforeAll(setUpI18n);
afterEach(signOutQuietly);

describe("Header", () => {
  it("gives a signed-in viewer their own pages in the navigation panel (phones open it with the menu button)", async () => {
    signIn();
    const { router } = renderWithApp(<Header />, { url: "/selected/videos" });

    await userEvent.click(screen.getByRole("button", { name: "Open the menu" }));
    const myStuff = screen.getByRole("navigation", { name: "My stuff" });
    const links = within(myStuff).getAllByRole("link");
    expect(links.map((link) => [link.textContent, link.getAttribute("href")])).toEqual([
      ["Watchlist", "/selected/videos"],
      ["My clips", "/selected/clips"],
      ["Following", "/following/league"],
      ["Recommendations", "/recommendation"],
      ["Favourite club", "/club"],
    ]);
    // The page being viewed is marked.
    expect(within(myStuff).getByRole("link", { name: "Watchlist" }).getAttribute("aria-current")).toBe("page");

    await userEvent.click(within(myStuff).getByRole("link", { name: "Recommendations" }));
    expect(router.state.location.pathname).toBe("/recommendation");
    expect(screen.getByRole("button", { name: "Open the menu" }).getAttribute("aria-expanded")).toBe("false");
  });

  it("offers nothing of the kind to an anonymous visitor", async () => {
    renderWithApp(<Header />, { url: "/" });
    await userEvent.click(screen.getByRole("button", { name: "Open the menu" }));
    expect(screen.queryByRole("navigation", { name: "My stuff" })).toBeNull();
    expect(screen.getByRole("navigation", { name: "Main" })).toBeTruthy();
  });
});
