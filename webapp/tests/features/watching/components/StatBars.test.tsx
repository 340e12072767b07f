import { render, within } from "@testing-library/react";
import { createInstance } from "i18next";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { describe, expect, it } from "vitest";
import { mapStatMetric } from "@/entities/stats";
import { LOCALES, type Locale } from "@/i18n/locales";
import { StatBars } from "@/features/watching/components/StatBars";

const catalog = import.meta.glob<Record<string, unknown>>("/src/i18n/locales/*/catalog.json", {
  eager: true,
  import: "default",
});
const stats = import.meta.glob<Record<string, unknown>>("/src/i18n/locales/*/stats.json", {
  eager: true,
  import: "default",
});
const namespaces = (locale: string) => ({
  catalog: catalog[`/src/i18n/locales/${locale}/catalog.json`]!,
  stats: stats[`/src/i18n/locales/${locale}/stats.json`]!,
});

const metric = (shortName: string, name: string, filterId: string) =>
  mapStatMetric({
    shortName,
    name,
    filterId,
    homeTeamValue: { text: "54%", number: 54 },
    awayTeamValue: { text: "46%", number: 46 },
  });

async function rows(locale: Locale, metrics = [metric("POS", "Possession", "possession")]) {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: locale,
    fallbackLng: "en",
    resources: { en: namespaces("en"), [locale]: namespaces(locale) },
    ns: ["catalog", "stats"],
    defaultNS: "catalog",
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  const { container, unmount } = render(
    <I18nextProvider i18n={i18n}>
      <StatBars metrics={metrics} homeName="Home" awayName="Away" />
    </I18nextProvider>,
  );
  const names = [...container.querySelectorAll("tbody th")].map((cell) => ({
    short: within(cell as HTMLElement).getByText((_, element) => element?.tagName === "ABBR").textContent,
    long: cell.querySelector(".stat-bars__long")?.textContent,
  }));
  unmount();
  return names;
}

describe("stat names", () => {
  it("keep the partner's English names and abbreviations in English", async () => {
    expect(await rows("en")).toEqual([{ short: "POS", long: "Possession" }]);
  });

  it("are translated in German and every other locale", async () => {
    expect(await rows("de")).toEqual([{ short: "Ballbesitz", long: "Ballbesitz" }]);
    for (const locale of LOCALES.filter((l) => l !== "en")) {
      const [row] = await rows(locale, [metric("SOT", "Shots on target", "shots_on_target")]);
      expect(row!.long, locale).not.toBe("Shots on target");
    }
  });

  it("of metrics we do not know stay as the partner writes them", async () => {
    expect(await rows("de", [metric("XG", "Expected goals", "expected_goals")])).toEqual([
      { short: "XG", long: "Expected goals" },
    ]);
  });
});
