import i18n from "i18next";
import { initReactI18next } from "react-i18next";

// Every English namespace, as the app ships them; a suite loads the ones it names.
const english = import.meta.glob<Record<string, unknown>>("/src/i18n/locales/en/*.json", {
  eager: true,
  import: "default",
});

/** i18next in English with the shipped texts of `namespaces` (the first is the default). */
export async function setUpEnglish(namespaces: string[]): Promise<void> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      lng: "en",
      fallbackLng: "en",
      ns: namespaces,
      defaultNS: namespaces[0],
      interpolation: { escapeValue: false },
      initAsync: false,
    });
  }
  for (const [path, bundle] of Object.entries(english)) {
    const namespace = path.split("/").pop()!.replace(".json", "");
    if (namespaces.includes(namespace)) i18n.addResourceBundle("en", namespace, bundle, true, true);
  }
}
