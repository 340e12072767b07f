import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { AuthLayout } from "@/app/layouts/AuthLayout";
import { DefaultLayout } from "@/app/layouts/DefaultLayout";
import { HomeLayout } from "@/app/layouts/HomeLayout";
import { emptySession, sessionStore } from "@/session/store";
import { MAIN_CONTENT_ID } from "@/ui/SkipLink";
import type { UserProfile } from "@/entities/user";
import { renderWithApp, setUpI18n, testConfig } from "../../ui/renderWithApp";

const logout = vi.hoisted(() => vi.fn(() => Promise.resolve()));
vi.mock("@/session/auth", () => ({ logout }));

const viewer = {
  id: "u1",
  added: "2025-03-02T10:00:00Z",
  email: "fan@touchline.test",
  fullName: "Alex Fan",
} as UserProfile;

beforeAll(setUpI18n);
afterEach(() => {
  act(() => sessionStore.setState(emptySession()));
  logout.mockClear();
});

const page = <p>Page body</p>;

describe("DefaultLayout", () => {
  it("puts the page in a focusable main landmark, the skip link's target (the app shell renders the link)", () => {
    renderWithApp(<DefaultLayout>{page}</DefaultLayout>, { url: "/live", path: "/live" });
    const main = screen.getByRole("main");
    expect(main.id).toBe(MAIN_CONTENT_ID);
    expect(main.tabIndex).toBe(-1);
    expect(within(main).getByText("Page body")).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Skip to content" })).toBeNull();
  });

  it("has the logo link home, the primary navigation and the footer links, all in the URL's locale", () => {
    renderWithApp(<DefaultLayout>{page}</DefaultLayout>, { url: "/de/live", path: "/de/live" });
    expect(screen.getByRole("link", { name: "Touchline – homepage" }).getAttribute("href")).toBe("/de/");
    const nav = screen.getByRole("navigation", { name: "Main" });
    const links = within(nav).getAllByRole("link");
    expect(links.map((link) => link.textContent)).toEqual([
      "Home",
      "Live",
      "Upcoming",
      "Archive",
      "Highlights",
      "Latest",
    ]);
    expect(within(nav).getByRole("link", { name: "Live" }).getAttribute("aria-current")).toBe("page");
    const footer = screen.getByRole("contentinfo");
    expect(within(footer).getByRole("link", { name: "Privacy" }).getAttribute("href")).toBe("/de/privacy");
    expect(footer.textContent).toContain(`© ${new Date().getFullYear()} Touchline`);
  });

  it("searches through /search?q=", async () => {
    const { router } = renderWithApp(<DefaultLayout>{page}</DefaultLayout>, { url: "/live", path: "/live" });
    fireEvent.change(screen.getByRole("searchbox", { name: "Search events, teams and leagues" }), {
      target: { value: "derby day" },
    });
    fireEvent.submit(screen.getByRole("search"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/search"));
    expect(router.state.location.search).toBe("?q=derby%20day");
  });

  it("opens the mobile menu with its button and closes it on Escape, focus back on the button", () => {
    renderWithApp(<DefaultLayout>{page}</DefaultLayout>, { url: "/live", path: "/live" });
    const button = screen.getByRole("button", { name: "Open the menu" });
    expect(button.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(button);
    expect(button.getAttribute("aria-expanded")).toBe("true");
    const menu = document.getElementById(button.getAttribute("aria-controls")!)!;
    expect(menu.dataset.open).toBe("true");
    expect(menu.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(document, { key: "Escape" });
    expect(button.getAttribute("aria-expanded")).toBe("false");
    expect(document.activeElement).toBe(button);
  });

  it("closes the mobile menu when keyboard focus leaves both the panel and its button", () => {
    renderWithApp(<DefaultLayout>{page}</DefaultLayout>, { url: "/live", path: "/live" });
    const button = screen.getByRole("button", { name: "Open the menu" });
    fireEvent.click(button);
    const menu = document.getElementById(button.getAttribute("aria-controls")!)!;
    const inside = within(menu).getByRole("link", { name: "Live" });
    // Moving within the panel, or back to the button, keeps it open.
    fireEvent.focusOut(document.activeElement!, { relatedTarget: inside });
    fireEvent.focusOut(inside, { relatedTarget: button });
    expect(menu.dataset.open).toBe("true");
    // Focus leaving for nowhere (another window) keeps it open too.
    fireEvent.focusOut(button, { relatedTarget: null });
    expect(menu.dataset.open).toBe("true");
    fireEvent.focusOut(button, { relatedTarget: screen.getByRole("main") });
    expect(menu.dataset.open).toBe("false");
    expect(button.getAttribute("aria-expanded")).toBe("false");
  });

  it("closes the mobile menu when the page changes", async () => {
    const { router } = renderWithApp(<DefaultLayout>{page}</DefaultLayout>, { url: "/live" });
    const button = screen.getByRole("button", { name: "Open the menu" });
    fireEvent.click(button);
    expect(button.getAttribute("aria-expanded")).toBe("true");
    await act(() => router.navigate("/archive"));
    expect(button.getAttribute("aria-expanded")).toBe("false");
    expect(document.getElementById(button.getAttribute("aria-controls")!)!.dataset.open).toBe("false");
  });

  it("shows the query of the search page being viewed in the header's search field", async () => {
    const { router } = renderWithApp(<DefaultLayout>{page}</DefaultLayout>, { url: "/search?q=derby" });
    const field = screen.getByRole<HTMLInputElement>("searchbox", { name: "Search events, teams and leagues" });
    expect(field.value).toBe("derby");
    await act(() => router.navigate("/search?q=cup%20final"));
    expect(field.value).toBe("cup final");
    // What the viewer types stays until the URL's query changes.
    fireEvent.change(field, { target: { value: "harbor" } });
    await act(() => router.navigate("/search?q=cup%20final#results"));
    expect(field.value).toBe("harbor");
    await act(() => router.navigate("/live"));
    expect(field.value).toBe("");
  });

  it("shows the theme toggle only when the tenant enables the white theme", () => {
    const { unmount } = renderWithApp(<DefaultLayout>{page}</DefaultLayout>, {
      config: testConfig({ enable_white_theme: false }),
    });
    expect(screen.queryByRole("button", { name: /theme/ })).toBeNull();
    expect(document.documentElement.dataset.theme).toBe("dark");
    unmount();
    renderWithApp(<DefaultLayout>{page}</DefaultLayout>, { config: testConfig({ enable_white_theme: true }) });
    fireEvent.click(screen.getByRole("button", { name: "Switch to the light theme" }));
    expect(document.documentElement.dataset.theme).toBe("light");
    expect(screen.getByRole("button", { name: "Switch to the dark theme" })).toBeTruthy();
  });

  it("offers Sign in and Sign up to visitors", () => {
    renderWithApp(<DefaultLayout>{page}</DefaultLayout>, { url: "/fr/live", path: "/fr/live" });
    expect(screen.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/fr/auth/login");
    // Once in the bar and once in the phone panel; CSS shows one of them per screen size.
    const signUps = screen.getAllByRole("link", { name: "Sign up" });
    expect(signUps.map((link) => link.getAttribute("href"))).toEqual(["/fr/auth/sign-up", "/fr/auth/sign-up"]);
  });

  it("gives a signed-in viewer a menu with Account and Log out, which ends the session and goes home", async () => {
    act(() => sessionStore.setState({ token: "t", user: viewer }));
    const { router } = renderWithApp(<DefaultLayout>{page}</DefaultLayout>, { url: "/live", path: "/live" });
    expect(screen.queryByRole("link", { name: "Sign up" })).toBeNull();
    const button = await screen.findByRole("button", { name: /Alex Fan/ });
    expect(button.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(button);
    expect(screen.getByRole("link", { name: "Account" }).getAttribute("href")).toBe("/account");
    fireEvent.click(screen.getByRole("button", { name: "Log out" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(logout).toHaveBeenCalledOnce();
  });
});

describe("the signed-in user menu", () => {
  it("closes when keyboard focus moves past its last item", async () => {
    act(() => sessionStore.setState({ token: "t", user: viewer }));
    renderWithApp(<DefaultLayout>{page}</DefaultLayout>, { url: "/live", path: "/live" });
    const button = await screen.findByRole("button", { name: /Alex Fan/ });
    fireEvent.click(button);
    const logOut = screen.getByRole("button", { name: "Log out" });
    fireEvent.focusOut(button, { relatedTarget: logOut });
    expect(button.getAttribute("aria-expanded")).toBe("true");
    fireEvent.focusOut(logOut, { relatedTarget: screen.getByRole("searchbox") });
    expect(button.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByRole("button", { name: "Log out" })).toBeNull();
  });
});

describe("HomeLayout", () => {
  it("has the header and the footer with its links", () => {
    renderWithApp(<HomeLayout>{page}</HomeLayout>);
    expect(screen.getByRole("banner")).toBeTruthy();
    expect(screen.getByRole("navigation", { name: "Main" })).toBeTruthy();
    expect(within(screen.getByRole("contentinfo")).getByRole("link", { name: "Privacy" })).toBeTruthy();
  });
});

describe("AuthLayout", () => {
  it("has a slim header with the logo and the language picker, and the footer links", () => {
    renderWithApp(<AuthLayout>{page}</AuthLayout>, { url: "/auth/login", path: "/auth/login" });
    const header = screen.getByRole("banner");
    expect(within(header).getByRole("link", { name: "Touchline – homepage" })).toBeTruthy();
    expect(within(header).getByRole("combobox", { name: "Language" })).toBeTruthy();
    expect(screen.queryByRole("navigation", { name: "Main" })).toBeNull();
    expect(within(screen.getByRole("contentinfo")).getByRole("link", { name: "About" })).toBeTruthy();
  });
});
