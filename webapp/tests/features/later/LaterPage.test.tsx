import { beforeAll, describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import LaterPage from "@/features/later/LaterPage";
import { laterTitleKey } from "@/features/later/routeTitle";
import { renderWithApp, setUpI18n } from "../../ui/renderWithApp";

beforeAll(setUpI18n);

describe("laterTitleKey", () => {
  it("names the title after the route", () => {
    expect(laterTitleKey("payment-success")).toBe("later.titles.payment-success");
  });

  it("gives the sign-up flow's following pages the titles of /following, ids aside", () => {
    expect(laterTitleKey("auth-sign-up-following-league-leagueId-followed")).toBe(
      "later.titles.following-league-followed",
    );
    expect(laterTitleKey("following-category-categoryId")).toBe("later.titles.following-category");
  });
});

describe("LaterPage", () => {
  it("titles the page after its route, says it is coming and links home", () => {
    renderWithApp(<LaterPage />, {
      url: "/de/selected/videos",
      path: "/de/selected/videos",
      handle: { name: "selected-videos", layout: "default" },
    });
    expect(screen.getByRole("heading", { level: 1, name: "My watchlist" })).toBeTruthy();
    expect(screen.getByText(/on its way/)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Go to the homepage" }).getAttribute("href")).toBe("/de/");
  });

  it("falls back to a generic title for a route it has no name for", () => {
    renderWithApp(<LaterPage />, { url: "/x", path: "/x", handle: { name: "something-new", layout: "default" } });
    expect(screen.getByRole("heading", { level: 1, name: "Coming soon" })).toBeTruthy();
  });
});
