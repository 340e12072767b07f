// @vitest-environment node
import { describe, expect, it } from "vitest";
import { allowedStoreUrl, runGuards, type GuardInput } from "@/app/guards";
import { appConfigFixture } from "../support/appConfig";

const options = appConfigFixture().options;

function input(
  overrides: Partial<GuardInput> & { opts?: Partial<typeof options>; redirects?: { path: string; to: string }[] } = {},
): GuardInput {
  const { opts, redirects, ...rest } = overrides;
  return {
    path: "/live",
    returnTo: "/live",
    config: { options: { ...options, ...opts }, redirects: redirects ?? [] },
    isAuthenticated: false,
    favoriteClubId: null,
    middleware: [],
    ...rest,
  };
}

describe("navigation guards", () => {
  it("lets an anonymous visitor through to a public page", () => {
    expect(runGuards(input())).toEqual({ kind: "continue" });
  });

  it("sends a signed-in viewer without a favourite club to /club/ when the option is on", () => {
    const outcome = runGuards(input({ opts: { favorite_club: true }, isAuthenticated: true }));
    expect(outcome).toEqual({ kind: "redirect", to: "/club/?redirect=%2Flive" });
    const fromHome = runGuards(
      input({ opts: { favorite_club: true }, isAuthenticated: true, path: "/", returnTo: "/" }),
    );
    expect(fromHome).toEqual({ kind: "redirect", to: "/club/" });
  });

  it("does not loop on /club/ itself nor bother viewers who picked a club or are anonymous", () => {
    expect(runGuards(input({ opts: { favorite_club: true }, isAuthenticated: true, path: "/club/" })).kind).toBe(
      "continue",
    );
    expect(
      runGuards(input({ opts: { favorite_club: true }, isAuthenticated: true, favoriteClubId: "team|7" })).kind,
    ).toBe("continue");
    expect(runGuards(input({ opts: { favorite_club: true } })).kind).toBe("continue");
  });

  it("skips the sign-in page for the federated sign-on when the option is on", () => {
    expect(runGuards(input({ opts: { skip_login: true }, path: "/auth/login/" }))).toEqual({
      kind: "redirect",
      to: "/",
    });
    expect(runGuards(input({ opts: { skip_login: false }, path: "/auth/login/" })).kind).toBe("continue");
    expect(runGuards(input({ opts: { skip_login: true }, path: "/auth/sign-up" })).kind).toBe("continue");
  });

  it("looks up redirect rules by path, with or without the trailing slash", () => {
    const redirects = [{ path: "/watch", to: "/live" }];
    expect(runGuards(input({ path: "/watch/", redirects }))).toEqual({ kind: "redirect", to: "/live" });
  });

  it("makes an absolute redirect target a full-page navigation", () => {
    const redirects = [{ path: "/app", to: "https://apps.apple.com/app/id1" }];
    expect(runGuards(input({ path: "/app", redirects }))).toEqual({
      kind: "external",
      to: "https://apps.apple.com/app/id1",
    });
  });

  it("runs the guards in the spec's order: the favourite club before the redirect rules", () => {
    const outcome = runGuards(
      input({
        opts: { favorite_club: true },
        isAuthenticated: true,
        path: "/watch",
        redirects: [{ path: "/watch", to: "/live" }],
      }),
    );
    expect(outcome).toEqual({ kind: "redirect", to: "/club/?redirect=%2Flive" });
  });

  it("sends anonymous visitors of a login-required page to sign in and back", () => {
    const outcome = runGuards(
      input({ path: "/account/devices", returnTo: "/account/devices?x=1", middleware: ["auth"] }),
    );
    expect(outcome).toEqual({ kind: "redirect", to: "/auth/login/?redirect=%2Faccount%2Fdevices%3Fx%3D1" });
    expect(runGuards(input({ middleware: ["auth"], isAuthenticated: true })).kind).toBe("continue");
  });

  it("hides team pages when the disable-team-page option is on", () => {
    expect(
      runGuards(input({ path: "/team/3", middleware: ["disable-team-page"], opts: { disable_team_page: true } })),
    ).toEqual({
      kind: "not-found",
    });
    expect(runGuards(input({ path: "/team/3", middleware: ["disable-team-page"] })).kind).toBe("continue");
  });
});

describe("storeUrl allow-list", () => {
  const hosts = ["play.google.com", "apps.apple.com"];

  it("allows an https URL on an allow-listed host", () => {
    expect(allowedStoreUrl("https://play.google.com/store/apps/details?id=x", hosts)).toBe(
      "https://play.google.com/store/apps/details?id=x",
    );
  });

  it("ignores other hosts, look-alike hosts, plain http, credentials and script URLs", () => {
    for (const raw of [
      "https://evil.example/",
      "https://play.google.com.evil.example/",
      "http://play.google.com/",
      "https://user@apps.apple.com/",
      "javascript:alert(1)",
      "//apps.apple.com/",
    ]) {
      expect(allowedStoreUrl(raw, hosts)).toBeNull();
    }
  });

  it("ignores a missing value and the text undefined", () => {
    expect(allowedStoreUrl(null, hosts)).toBeNull();
    expect(allowedStoreUrl("undefined", hosts)).toBeNull();
  });
});
