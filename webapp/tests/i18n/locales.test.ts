// @vitest-environment node
import { describe, expect, it } from "vitest";
import { LOCALES, NAMESPACES, directionOf, localizePath, splitLocalePath } from "@/i18n/locales";

// Every translation file, read eagerly for the test (the app loads them lazily).
const files = import.meta.glob<Record<string, unknown>>("/src/i18n/locales/*/*.json", {
  eager: true,
  import: "default",
});
const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(tree: Record<string, unknown>, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === "object") Object.assign(out, flatten(value as Record<string, unknown>, path));
    else out[path] = String(value);
  }
  return out;
}

function messages(locale: string, ns: string): Record<string, string> {
  const tree = files[`/src/i18n/locales/${locale}/${ns}.json`];
  expect(tree, `src/i18n/locales/${locale}/${ns}.json is missing`).toBeDefined();
  return flatten(tree!);
}

/** Keys without plural suffixes: languages need different plural forms of the same message. */
function baseKeys(table: Record<string, string>): string[] {
  return [...new Set(Object.keys(table).map((key) => key.replace(PLURAL, "")))].sort();
}

describe.each([...NAMESPACES])("the %s translations", (ns) => {
  const english = messages("en", ns);

  it("exist in English", () => {
    expect(Object.keys(english).length).toBeGreaterThan(0);
  });

  it.each(LOCALES.filter((locale) => locale !== "en"))("%s has every key English has, and no other", (locale) => {
    expect(baseKeys(messages(locale, ns))).toEqual(baseKeys(english));
  });

  it.each([...LOCALES])("%s has no empty message and every plural form its language uses", (locale) => {
    const table = messages(locale, ns);
    for (const [key, value] of Object.entries(table)) expect(value.trim(), `${locale}/${ns}: ${key}`).not.toBe("");
    const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
    const plurals = new Set(
      Object.keys(table)
        .filter((key) => PLURAL.test(key))
        .map((key) => key.replace(PLURAL, "")),
    );
    for (const base of plurals) {
      for (const category of categories) {
        if (category === "zero") continue; // none of the 14 languages needs its own zero form
        expect(table, `${locale}/${ns}: ${base}_${category}`).toHaveProperty([`${base}_${category}`]);
      }
    }
  });

  it.each([...LOCALES])("%s keeps every {{placeholder}} of the English message", (locale) => {
    const table = messages(locale, ns);
    const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)/g)].map((m) => m[1]).sort();
    for (const [key, value] of Object.entries(english)) {
      if (PLURAL.test(key)) continue; // plural forms may name the count or not, per language
      const translated = table[key];
      expect(new Set(placeholders(translated)), `${locale}/${ns}: ${key}`).toEqual(new Set(placeholders(value)));
    }
  });
});

describe("locale paths", () => {
  it("keeps English paths without a prefix and prefixes the others", () => {
    expect(localizePath("/league/3", "en")).toBe("/league/3");
    expect(localizePath("/league/3", "fr-CA")).toBe("/fr-CA/league/3");
    expect(splitLocalePath("/bs-BA/live")).toEqual({ locale: "bs-BA", path: "/live" });
    expect(splitLocalePath("/league/3")).toEqual({ locale: "en", path: "/league/3" });
  });

  it("writes right to left only in Hebrew", () => {
    expect(LOCALES.filter((locale) => directionOf(locale) === "rtl")).toEqual(["he"]);
  });
});
