// @vitest-environment node
import { describe, expect, it } from "vitest";
import { localeLoader } from "@/app/localeLoader";
import { NotFoundError } from "@/lib/errors";

function load(path: string, locale: string): unknown {
  try {
    return localeLoader({
      params: { locale },
      request: new Request(`http://touchline.test${path}`),
      context: undefined,
    } as never);
  } catch (thrown) {
    return thrown;
  }
}

describe("the locale prefix", () => {
  it("accepts the other 13 locales", () => {
    expect(load("/de/live", "de")).toBeNull();
    expect(load("/fr-CA/live", "fr-CA")).toBeNull();
  });

  it("sends /en/... to the unprefixed page, keeping the query", () => {
    const answer = load("/en/archive?date=today", "en") as Response;
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/archive?date=today");
    expect((load("/en", "en") as Response).headers.get("Location")).toBe("/");
  });

  it("is a page not found for anything that is not a locale", () => {
    const answer = load("/xx/live", "xx");
    expect(answer).toBeInstanceOf(NotFoundError);
    expect((answer as NotFoundError).message).toBe("Page not found: /xx/live");
  });
});
