import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { act, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createMemoryRouter, RouterProvider } from "react-router";
import { AppShell } from "@/app/AppShell";
import { appConfigQuery } from "@/lib/config";
import { MAIN_CONTENT_ID } from "@/ui/SkipLink";
import { setUpI18n, testConfig } from "../ui/renderWithApp";

const ANDROID_CHROME =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";

beforeAll(setUpI18n);
afterEach(() => vi.restoreAllMocks());

function renderShell(url = "/live") {
  const queryClient = new QueryClient();
  queryClient.setQueryData(appConfigQuery.queryKey, testConfig());
  const router = createMemoryRouter(
    [
      {
        path: "/",
        element: <AppShell />,
        children: [
          {
            path: "live",
            element: <button type="button">Live page</button>,
            handle: { name: "live", layout: "default" },
          },
          { path: "archive", element: <p>Archive page</p>, handle: { name: "archive", layout: "default" } },
          { path: "auth/login", element: <p>Sign-in page</p>, handle: { name: "login", layout: "auth" } },
        ],
      },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe("AppShell", () => {
  it("renders the skip link first, before the mobile app banner", async () => {
    vi.spyOn(navigator, "userAgent", "get").mockReturnValue(ANDROID_CHROME);
    renderShell();
    const banner = await screen.findByRole("complementary", { name: "Mobile app" });
    const skip = screen.getAllByRole("link")[0];
    expect(skip.textContent).toBe("Skip to content");
    expect(skip.getAttribute("href")).toBe(`#${MAIN_CONTENT_ID}`);
    expect(skip.compareDocumentPosition(banner) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getAllByRole("link", { name: "Skip to content" })).toHaveLength(1);
  });

  it("leaves focus alone on the first load", async () => {
    renderShell();
    await screen.findByText("Live page");
    expect(document.activeElement).toBe(document.body);
  });

  it("moves focus to the main landmark when the page changes, also across layouts", async () => {
    const router = renderShell();
    screen.getByRole("button", { name: "Live page" }).focus();
    await act(() => router.navigate("/archive"));
    await screen.findByText("Archive page");
    expect(document.activeElement?.id).toBe(MAIN_CONTENT_ID);
    await act(() => router.navigate("/auth/login"));
    await screen.findByText("Sign-in page");
    expect(document.activeElement).toBe(screen.getByRole("main"));
  });

  it("keeps focus where it is when only the query or the hash changes", async () => {
    const router = renderShell();
    const control = screen.getByRole("button", { name: "Live page" });
    control.focus();
    await act(() => router.navigate("/live?sport=football"));
    await act(() => router.navigate("/live?sport=football#today"));
    expect(document.activeElement).toBe(control);
  });
});
