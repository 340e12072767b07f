import { render } from "@testing-library/react";
import { createInstance, type i18n as I18n } from "i18next";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { DurationUnit, Product } from "@/entities/product";
import { LOCALES, localizePath, type Locale } from "@/i18n/locales";
import { ProductDetails } from "@/features/commerce/components/ProductDetails";

const commerce = import.meta.glob<Record<string, unknown>>("/src/i18n/locales/*/commerce.json", {
  eager: true,
  import: "default",
});

async function translator(locale: Locale): Promise<I18n> {
  const instance = createInstance();
  await instance.use(initReactI18next).init({
    lng: locale,
    fallbackLng: "en",
    ns: ["commerce"],
    defaultNS: "commerce",
    resources: {
      en: { commerce: commerce["/src/i18n/locales/en/commerce.json"]! },
      [locale]: { commerce: commerce[`/src/i18n/locales/${locale}/commerce.json`]! },
    },
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return instance;
}

function product(overrides: Partial<Product>): Product {
  return {
    id: "p1",
    title: "Pass",
    description: null,
    descriptions: {},
    type: "svod",
    eventId: null,
    price: 9.99,
    currency: "EUR",
    active: false,
    canceled: false,
    purchaseProcessing: false,
    renewable: true,
    availableInUserRegion: true,
    offerStartDate: null,
    offerEndDate: null,
    updated: null,
    duration: 1,
    durationUnits: "months",
    allowedAccessIdentityItems: ["league-1"],
    bundle: null,
    ...overrides,
  };
}

async function details(locale: Locale, shown: Product): Promise<{ period: string; unlocks: string }> {
  const instance = await translator(locale);
  const { container, unmount } = render(
    <I18nextProvider i18n={instance}>
      <MemoryRouter initialEntries={[localizePath("/auth/sign-up/subscription", locale)]}>
        <ProductDetails product={shown} />
      </MemoryRouter>
    </I18nextProvider>,
  );
  const values = [...container.querySelectorAll("dd")].map((dd) => dd.textContent ?? "");
  unmount();
  // Price, currency, period, renewal, unlocks (no bundle end date here).
  return { period: values[2]!, unlocks: values[4]! };
}

const UNITS: DurationUnit[] = ["hours", "days", "weeks", "months", "years"];
const COUNTS = [1, 2, 3, 5, 7, 12, 21, 22, 25, 100];

describe.each([...LOCALES])("plan and checkout texts in %s", (locale) => {
  it("fill in every count: no template text, no '(s)' forms, no raw keys", async () => {
    for (const unit of UNITS) {
      for (const count of COUNTS) {
        const leagues = Array.from({ length: count }, (_, index) => `league-${index}`);
        const { period, unlocks } = await details(
          locale,
          product({ duration: count, durationUnits: unit, allowedAccessIdentityItems: leagues }),
        );
        for (const text of [period, unlocks]) {
          expect(text, `${locale} ${count} ${unit}`).not.toMatch(/{{|}}|\(s\)|\(e\)|\(n\)|product\.|_one|_other/);
          expect(text.trim()).not.toBe("");
        }
      }
    }
  });
});

describe("a subscription naming no league", () => {
  it.each([
    ["en", "Every match of every league"],
    ["de", "Jedes Spiel aller Ligen"],
  ] as [Locale, string][])("%s: unlocks every league: %s", async (locale, expected) => {
    const { unlocks } = await details(locale, product({ allowedAccessIdentityItems: [] }));
    expect(unlocks).toBe(expected);
  });
});

describe("plural forms", () => {
  const cases: [Locale, DurationUnit, number, string][] = [
    ["en", "days", 1, "1 day"],
    ["en", "days", 7, "7 days"],
    ["en", "months", 1, "1 month"],
    ["de", "days", 1, "1 Tag"],
    ["de", "days", 7, "7 Tage"],
    ["de", "months", 3, "3 Monate"],
    ["pl", "days", 1, "1 dzień"],
    ["pl", "months", 2, "2 miesiące"],
    ["pl", "months", 5, "5 miesięcy"],
    ["pl", "months", 22, "22 miesiące"],
    ["uk-UA", "days", 1, "1 день"],
    ["uk-UA", "days", 3, "3 дні"],
    ["uk-UA", "days", 7, "7 днів"],
    ["uk-UA", "days", 21, "21 день"],
    ["bs-BA", "months", 1, "1 mjesec"],
    ["bs-BA", "months", 3, "3 mjeseca"],
    ["bs-BA", "months", 6, "6 mjeseci"],
    ["he", "days", 2, "יומיים"],
    ["fr", "months", 1, "1 mois"],
    ["es", "years", 2, "2 años"],
  ];
  it.each(cases)("%s: %s × %i reads %s", async (locale, unit, count, expected) => {
    const { period } = await details(locale, product({ duration: count, durationUnits: unit }));
    expect(period).toBe(expected);
  });

  it.each([
    ["en", 1, "Every match of 1 league"],
    ["en", 4, "Every match of 4 leagues"],
    ["de", 1, "Jedes Spiel von 1 Liga"],
    ["de", 3, "Jedes Spiel von 3 Ligen"],
    ["pl", 5, "Każdy mecz z 5 lig"],
    ["uk-UA", 2, "Кожен матч 2 ліг"],
  ] as [Locale, number, string][])("%s: a pass for %i league(s) reads %s", async (locale, count, expected) => {
    const leagues = Array.from({ length: count }, (_, index) => `league-${index}`);
    const { unlocks } = await details(locale, product({ allowedAccessIdentityItems: leagues }));
    expect(unlocks).toBe(expected);
  });
});
