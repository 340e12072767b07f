// @vitest-environment node
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

// Read from disk: Vitest does not process CSS imports.
const themeCss = readFileSync(resolve(__dirname, "../../src/ui/theme.css"), "utf8");

type Theme = "dark" | "light";

/** The `--name: #hex` tokens of the rule whose selector list holds `[data-theme="{theme}"]`. */
function themeTokens(theme: Theme): Record<string, string> {
  const css = themeCss.replace(/\/\*[\s\S]*?\*\//g, "");
  const rule = [...css.matchAll(/([^{}]+)\{([^{}]*)\}/g)].find(([, selectors]) =>
    selectors.split(",").some((selector) => selector.trim() === `[data-theme="${theme}"]`),
  );
  if (!rule) throw new Error(`theme.css has no [data-theme="${theme}"] rule`);
  const tokens: Record<string, string> = {};
  for (const [, name, value] of rule[2].matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{6})\b/g)) tokens[name] = value;
  return tokens;
}

/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((start) => {
    const channel = parseInt(hex.slice(start, start + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

const WHITE = "#ffffff";

describe.each<Theme>(["dark", "light"])("the %s theme", (theme) => {
  const tokens = themeTokens(theme);
  const token = (name: string) => {
    const value = tokens[name];
    if (!value) throw new Error(`--${name} is not a #rrggbb colour in the ${theme} theme`);
    return value;
  };

  it.each([
    ["text", "bg"],
    ["text", "surface"],
    ["text", "surface-2"],
    ["text-muted", "bg"],
    ["text-muted", "surface"],
    ["accent", "bg"],
    ["accent", "surface"],
    ["accent-text", "accent"],
    ["danger", "bg"],
    ["danger", "surface"],
  ])("gives --%s on --%s a text contrast of at least 4.5:1", (foreground, background) => {
    expect(contrast(token(foreground), token(background))).toBeGreaterThanOrEqual(4.5);
  });

  it("keeps white text on the --live badge at 4.5:1 or more", () => {
    expect(contrast(WHITE, token("live"))).toBeGreaterThanOrEqual(4.5);
  });

  it.each(["bg", "surface", "surface-2"])("outlines form controls at 3:1 or more against --%s", (background) => {
    expect(contrast(token("control-border"), token(background))).toBeGreaterThanOrEqual(3);
  });

  it("draws the focus ring at 3:1 or more against --bg", () => {
    expect(contrast(token("focus"), token("bg"))).toBeGreaterThanOrEqual(3);
  });
});

describe("contrast", () => {
  it("measures black on white as 21:1 and a colour on itself as 1:1", () => {
    expect(contrast("#000000", WHITE)).toBeCloseTo(21, 5);
    expect(contrast("#0b7a40", "#0b7a40")).toBe(1);
  });
});

describe("the sticky header", () => {
  it("keeps jump targets and focused elements clear of it by padding the page's scroll area", () => {
    expect(themeCss).toMatch(/html\s*\{[^}]*scroll-padding-top:\s*var\(--header-total\)/);
    expect(themeCss).toMatch(/--header-total:/);
  });
});
