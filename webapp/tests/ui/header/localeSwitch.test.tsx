import { beforeAll, describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { LocaleSwitcher } from "@/ui/header/LocaleSwitcher";
import { LANGUAGE_NAMES, languageName, switchLocalePath } from "@/ui/header/localeSwitch";
import { LOCALES } from "@/i18n/locales";
import { renderWithApp, setUpI18n } from "../renderWithApp";

describe("switchLocalePath", () => {
  it("adds the new locale's prefix to an English path", () => {
    expect(switchLocalePath("/league/3", "de")).toBe("/de/league/3");
  });

  it("swaps one prefix for another", () => {
    expect(switchLocalePath("/de/league/3", "fr-CA")).toBe("/fr-CA/league/3");
  });

  it("drops the prefix for English", () => {
    expect(switchLocalePath("/bs-BA/live", "en")).toBe("/live");
    expect(switchLocalePath("/he", "en")).toBe("/");
  });

  it("keeps the query and the hash", () => {
    expect(switchLocalePath("/pl/search?q=derby#results", "uk-UA")).toBe("/uk-UA/search?q=derby#results");
    expect(switchLocalePath("/search?q=derby", "ko")).toBe("/ko/search?q=derby");
  });

  it("turns the homepage into the bare locale root", () => {
    expect(switchLocalePath("/", "es")).toBe("/es");
    expect(switchLocalePath("/it/", "zh")).toBe("/zh");
  });

  it("does not mistake a page that looks like a locale for a prefix", () => {
    expect(switchLocalePath("/live/de", "fr")).toBe("/fr/live/de");
  });
});

describe("languageName", () => {
  it("names each language in that language", () => {
    expect(languageName("de")).toBe("Deutsch");
    expect(languageName("he")).toBe("עברית");
    expect(languageName("uk-UA")).toBe("Українська");
  });

  it("names the region only where two locales share a language", () => {
    expect(languageName("fr")).toBe("Français");
    expect(languageName("fr-CA")).toBe("Français (Canada)");
    expect(languageName("bs-BA")).toBe("Bosanski");
  });

  it("says what the runtime's own locale data says, for every locale", () => {
    for (const locale of LOCALES) {
      const language = locale.split("-")[0];
      const shared = LOCALES.some((other) => other !== locale && other.split("-")[0] === language);
      const name =
        new Intl.DisplayNames([locale], { type: "language", languageDisplay: "standard" }).of(
          shared ? locale : language,
        ) ?? "";
      expect(LANGUAGE_NAMES[locale]).toBe(name.charAt(0).toLocaleUpperCase(locale) + name.slice(1));
    }
  });
});

describe("<LocaleSwitcher/>", () => {
  beforeAll(setUpI18n);

  it("lists the 14 locales and moves to the same page in the chosen one", async () => {
    const { router } = renderWithApp(<LocaleSwitcher />, { url: "/league/3?tab=table", path: "/league/:id" });
    const select = screen.getByRole("combobox", { name: "Language" }) as HTMLSelectElement;
    expect(select.options).toHaveLength(14);
    expect(select.value).toBe("en");
    fireEvent.change(select, { target: { value: "pl" } });
    await waitFor(() => expect(router.state.location.pathname).toBe("/pl/league/3"));
    expect(router.state.location.search).toBe("?tab=table");
  });
});
