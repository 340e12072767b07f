import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { DEFAULT_LOCALE, LOCALES, LOCALE_COOKIE, LOCALE_COOKIE_DAYS, directionOf, type Locale } from "./locales";

import enCommon from "./locales/en/common.json";

type Loaders = Record<string, () => Promise<{ default: Record<string, unknown> }>>;

// Every locale file is its own chunk: a visitor downloads only their language's namespaces. The
// table of English files ships with the app; the other locales' table (a line per file, some
// 150) is a chunk of its own, fetched once by visitors who read another language.
const english: Loaders = import.meta.glob<{ default: Record<string, unknown> }>("./locales/en/*.json");
let otherLocales: Promise<Loaders> | null = null;
const loadersOf = (lng: string) =>
  lng === DEFAULT_LOCALE ? english : (otherLocales ??= import("./otherLocales").then((module) => module.files));

async function loadResource(lng: string, ns: string) {
  const load = (await loadersOf(lng))[`./locales/${lng}/${ns}.json`];
  if (!load) return {};
  return (await load()).default;
}

let markReady: () => void;
/** Resolves once initI18n has run: loading a namespace before that would go nowhere. */
export const i18nReady = new Promise<void>((resolve) => (markReady = resolve));

/** Loads a page's namespace once the instance is ready (the router asks before i18n may be up). */
export async function loadNamespace(ns: string): Promise<void> {
  await i18nReady;
  await i18n.loadNamespaces(ns);
}

export async function initI18n(locale: Locale): Promise<typeof i18n> {
  void loadersOf(locale); // the table of the visitor's language, while i18next starts
  await i18n
    .use(initReactI18next)
    .use({
      type: "backend",
      // read(language, namespace, callback), said so: i18next would otherwise guess it from the arity.
      callbackApi: true,
      read: (lng: string, ns: string, done: (e: unknown, d?: unknown) => void) => {
        loadResource(lng, ns).then(
          (data) => done(null, data),
          (error) => done(error),
        );
      },
    } as never)
    .init({
      lng: locale,
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: [...LOCALES],
      // What every page shows; a page's own namespaces load with its code (src/app/routes.tsx),
      // error messages when one is first shown. English, the fallback of every locale, ships
      // with the app: no round trip before the first render.
      ns: ["common"],
      resources: { en: { common: enCommon } },
      partialBundledLanguages: true,
      defaultNS: "common",
      load: "currentOnly",
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: true },
    });
  applyDocumentLocale(locale);
  markReady();
  return i18n;
}

/** `<html lang dir>` follow the locale; the cookie remembers it for a year (spec §9). */
export function applyDocumentLocale(locale: Locale): void {
  document.documentElement.lang = locale;
  document.documentElement.dir = directionOf(locale);
  // Written by hand: js-cookie would cost the first load a kilobyte for this one line.
  document.cookie = `${LOCALE_COOKIE}=${locale}; max-age=${LOCALE_COOKIE_DAYS * 86_400}; path=/; samesite=lax`;
}

export async function changeLocale(locale: Locale): Promise<void> {
  if (i18n.language !== locale) await i18n.changeLanguage(locale);
  applyDocumentLocale(locale);
}

export default i18n;
