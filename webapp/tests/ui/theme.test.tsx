import { beforeEach, describe, expect, it } from "vitest";
import { act, renderHook } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { appConfigQuery } from "@/lib/config";
import { THEME_STORAGE_KEY, applyTheme, effectiveTheme, readStoredTheme, useTheme } from "@/ui/theme";
import { testConfig } from "./renderWithApp";

function themeColor(): string | undefined {
  return document.querySelector<HTMLMetaElement>('meta[name="theme-color"]')?.content;
}

function wrapperWith(whiteTheme: boolean) {
  const client = new QueryClient();
  client.setQueryData(appConfigQuery.queryKey, testConfig({ enable_white_theme: whiteTheme }));
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
}

beforeEach(() => {
  document.head.querySelectorAll('meta[name="theme-color"]').forEach((meta) => meta.remove());
  delete document.documentElement.dataset.theme;
});

describe("applyTheme", () => {
  it("sets data-theme on <html> and the theme colour #0f1624 for dark", () => {
    applyTheme("dark");
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(themeColor()).toBe("#0f1624");
  });

  it("sets the theme colour #f4f7fc for light, reusing the existing meta tag", () => {
    applyTheme("dark");
    applyTheme("light");
    expect(document.documentElement.dataset.theme).toBe("light");
    expect(themeColor()).toBe("#f4f7fc");
    expect(document.querySelectorAll('meta[name="theme-color"]')).toHaveLength(1);
  });
});

describe("effectiveTheme", () => {
  it("forces dark when the tenant has no white theme, whatever was stored", () => {
    expect(effectiveTheme(false, "light")).toBe("dark");
  });

  it("follows the stored choice when the white theme is enabled, dark by default", () => {
    expect(effectiveTheme(true, "light")).toBe("light");
    expect(effectiveTheme(true, null)).toBe("dark");
  });
});

describe("useTheme", () => {
  it("toggles, persists the choice under localStorage 'theme' and applies it", () => {
    const { result } = renderHook(() => useTheme(), { wrapper: wrapperWith(true) });
    expect(result.current.theme).toBe("dark");
    act(() => result.current.toggleTheme());
    expect(result.current.theme).toBe("light");
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("light");
    expect(document.documentElement.dataset.theme).toBe("light");
    expect(themeColor()).toBe("#f4f7fc");
  });

  it("keeps dark and cannot switch when the white theme is off", () => {
    localStorage.setItem(THEME_STORAGE_KEY, "light");
    const { result } = renderHook(() => useTheme(), { wrapper: wrapperWith(false) });
    expect(result.current.canSwitch).toBe(false);
    expect(result.current.theme).toBe("dark");
    act(() => result.current.toggleTheme());
    expect(result.current.theme).toBe("dark");
    expect(document.documentElement.dataset.theme).toBe("dark");
  });

  it("ignores a stored value that is not a theme", () => {
    localStorage.setItem(THEME_STORAGE_KEY, "purple");
    expect(readStoredTheme()).toBeNull();
  });
});
