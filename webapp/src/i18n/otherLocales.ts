/** Where each locale's translation files are, English excepted (src/i18n/index.ts ships that one). */
export const files = import.meta.glob<{ default: Record<string, unknown> }>([
  "./locales/*/*.json",
  "!./locales/en/*.json",
]);
