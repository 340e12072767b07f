// @vitest-environment node
import { describe, expect, it } from "vitest";
import type { RouteObject } from "react-router";
import { pageRoutes } from "@/app/routes";
import shared from "./routePatterns.json";

/**
 * The server answers 404 for paths no page of the router matches (server/page_routes.py). Both
 * sides are held to routePatterns.json: a route added to src/app/routes.tsx must be added there
 * and to the server's table (server/tests/test_page_routes.py checks that side).
 */
describe("the route patterns the server knows", () => {
  it("are exactly the router's pages, in order", () => {
    const patterns = pageRoutes()
      .filter((route: RouteObject) => route.path !== "*")
      .map((route: RouteObject) => (route.index ? "" : route.path));
    expect(patterns).toEqual(shared.patterns);
  });

  it("end with the catch-all that shows the not-found screen", () => {
    expect(pageRoutes().at(-1)?.path).toBe("*");
  });
});
