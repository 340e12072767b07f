import { beforeAll, describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createMemoryRouter, RouterProvider } from "react-router";
import { AppShell } from "@/app/AppShell";
import { appConfigQuery } from "@/lib/config";
import { setUpI18n, testConfig } from "../ui/renderWithApp";

// A file of its own: the banner's module, once loaded by another test, stays loaded.
const bannerLoads = vi.hoisted(() => ({ count: 0 }));
vi.mock("@/ui/SmartBanner", async (importOriginal) => {
  bannerLoads.count += 1;
  return importOriginal();
});

beforeAll(setUpI18n);

describe("AppShell on a desktop", () => {
  it("renders no app banner and never fetches its code", async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(appConfigQuery.queryKey, testConfig());
    const router = createMemoryRouter(
      [{ path: "/", element: <AppShell />, children: [{ index: true, element: <p>Home page</p> }] }],
      { initialEntries: ["/"] },
    );
    render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText("Home page")).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole("complementary", { name: "Mobile app" })).toBeNull();
    expect(bannerLoads.count).toBe(0);
  });
});
