import { useCallback, useEffect, useSyncExternalStore } from "react";
import { useAppConfig } from "@/lib/config";

/** The two themes of the product (spec §3); dark is the default and is forced without the white theme. */
export type Theme = "dark" | "light";

export const THEME_STORAGE_KEY = "theme";
/** `<meta name="theme-color">` per theme (spec §2). */
export const THEME_COLORS: Record<Theme, string> = { dark: "#0f1624", light: "#f4f7fc" };

function isTheme(value: unknown): value is Theme {
  return value === "dark" || value === "light";
}

/** Puts the theme on `<html data-theme>` (read by theme.css) and on the browser's theme colour. */
export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  let meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  if (!meta) {
    meta = document.createElement("meta");
    meta.name = "theme-color";
    document.head.append(meta);
  }
  meta.content = THEME_COLORS[theme];
}

export function readStoredTheme(): Theme | null {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return isTheme(value) ? value : null;
  } catch {
    return null; // storage blocked (private mode, sandboxed frame): fall back to the default
  }
}

// Every component using the theme re-renders when any of them changes it.
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === THEME_STORAGE_KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

export function storeTheme(theme: Theme): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Not persisted; the choice still applies to this page.
  }
  applyTheme(theme);
  listeners.forEach((listener) => listener());
}

/** The theme in effect: the stored choice when the tenant enables the white theme, dark otherwise. */
export function effectiveTheme(whiteThemeEnabled: boolean, stored: Theme | null): Theme {
  return whiteThemeEnabled ? (stored ?? "dark") : "dark";
}

export interface ThemeState {
  theme: Theme;
  /** False when the tenant has no white theme: the toggle is hidden and dark is forced. */
  canSwitch: boolean;
  setTheme: (theme: Theme) => void;
  toggleTheme: () => void;
}

export function useTheme(): ThemeState {
  const canSwitch = useAppConfig().enable_white_theme;
  const stored = useSyncExternalStore(subscribe, readStoredTheme, () => null);
  const theme = effectiveTheme(canSwitch, stored);

  useEffect(() => applyTheme(theme), [theme]);

  const setTheme = useCallback(
    (next: Theme) => {
      if (canSwitch) storeTheme(next);
    },
    [canSwitch],
  );
  const toggleTheme = useCallback(() => setTheme(theme === "dark" ? "light" : "dark"), [setTheme, theme]);
  return { theme, canSwitch, setTheme, toggleTheme };
}
