import { describe, expect, it } from "vitest";
import { decodeLimitData, encodeLimitData } from "@/features/auth/signIn/limitData";
import { safeRedirectPath, signedInTarget } from "@/features/auth/signIn/redirectTarget";

describe("the ?redirect= return path", () => {
  it("keeps relative paths of this site, with their query", () => {
    expect(safeRedirectPath("/events/42?tab=stats")).toBe("/events/42?tab=stats");
    expect(signedInTarget("/live", "de")).toBe("/de/live");
    expect(signedInTarget("/de/live", "de")).toBe("/de/live");
  });

  it("drops other sites, protocol-relative and backslash tricks, and auth pages", () => {
    for (const bad of [
      "https://evil.test/",
      "//evil.test/x",
      "/\\evil.test",
      "/\t/evil.test",
      "javascript:alert(1)",
      "live",
      "/auth/login/",
      "/de/auth/sign-up/",
    ]) {
      expect(safeRedirectPath(bad), bad).toBeNull();
    }
    expect(signedInTarget("//evil.test", "en")).toBe("/");
    expect(signedInTarget(null, "fr")).toBe("/fr/");
  });
});

describe("the device-limit page's data parameter", () => {
  it("round-trips base64 JSON with the ticket, the provider and a non-ASCII username", () => {
    const data = { token: "lt_0123456789abcdef", provider: "credentials" as const, username: "zoë@example.com" };
    const encoded = encodeLimitData(data);
    expect(JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0))))).toEqual(data);
    expect(decodeLimitData(encoded)).toEqual(data);
  });

  it("refuses missing, non-base64, non-JSON data and data without a ticket", () => {
    expect(decodeLimitData(null)).toBeNull();
    expect(decodeLimitData("%%%")).toBeNull();
    expect(decodeLimitData(btoa("not json"))).toBeNull();
    expect(decodeLimitData(btoa(JSON.stringify({ provider: "ifa" })))).toBeNull();
  });
});
