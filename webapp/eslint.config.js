// @ts-check
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import prettier from "eslint-config-prettier/flat";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/*
 * The layers of src/, lowest first. A module imports from its own layer and the ones below it,
 * never from one above:
 *
 *   api        the HTTP client, the contract's generated types, API errors
 *   i18n       locales and translations
 *   lib        app-wide plumbing without UI: configuration, the query client, navigation from outside
 *              React, page errors, toasts, the route handle's types
 *   entities   the app's data and its mappers from the API's shapes
 *   session    the viewer's session: store, tokens, sign-in and expiry; the catalogue's reads that
 *              features share, asked as this viewer (session/catalog)
 *   realtime   the socket
 *   ui         shared components, hooks and styles
 *   features/* one folder per feature; a feature never imports another one
 *   app        routes, layouts, guards, the shell; main.tsx starts it all
 *
 * Everything below features/ is shared code: it never imports features/ or app/.
 */
const LAYERS = ["api", "i18n", "lib", "entities", "session", "realtime", "ui", "features", "app"];
const FEATURES = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const layerZones = LAYERS.slice(0, -1).map((layer, index) => ({
  target: `./src/${layer}`,
  from: [...LAYERS.slice(index + 1).map((above) => `./src/${above}`), "./src/main.tsx"],
  message: `src/${layer} sits below ${LAYERS.slice(index + 1).join(", ")}: it may not import them (see eslint.config.js).`,
}));
const featureZones = FEATURES.map((feature) => ({
  target: `./src/features/${feature}`,
  from: "./src/features",
  except: [`./${feature}`],
  message: "A feature never imports another feature: move what they share to a shared layer.",
}));

export default defineConfig([
  globalIgnores([
    "dist/",
    "test-results/",
    "playwright-report/",
    "bench-results/",
    // Written by `npm run generate`; tests/api/generated.test.ts keeps them what the generators write.
    "src/api/schema.gen.ts",
    "src/realtime/events.gen.ts",
  ]),
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  js.configs.recommended,
  tseslint.configs.strict,
  tseslint.configs.stylistic,
  importX.flatConfigs.recommended,
  importX.flatConfigs.typescript,
  {
    settings: {
      // The generated contract types import nothing: no need to parse them for cycles and exports.
      "import-x/ignore": ["\\.gen\\.ts$"],
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" }), createNodeResolver()],
    },
    rules: {
      // TypeScript checks these already (tsc -b), and far faster.
      "import-x/namespace": "off",
      "import-x/default": "off",
      "import-x/no-named-as-default-member": "off",
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-self-import": "error",
      "import-x/no-useless-path-segments": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    languageOptions: { globals: globals.browser },
    rules: {
      "import-x/no-restricted-paths": ["error", { zones: [...layerZones, ...featureZones] }],
    },
  },
  {
    // The hooks rules with the React Compiler's checks for the app's code.
    files: ["src/**/*.{ts,tsx}"],
    ...reactHooks.configs.flat.recommended,
  },
  {
    // The rules of hooks for the components and hooks tests write; the compiler's checks are
    // for the code that ships (they are also the slowest rules by far).
    files: ["tests/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    files: ["src/**/*.tsx", "tests/**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    files: ["tests/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.vitest } },
  },
  {
    files: ["e2e/**/*.{ts,mjs,mts}", "scripts/**/*.mjs", "*.config.{js,ts}"],
    languageOptions: { globals: globals.node },
  },
  {
    // In a test, `value!` is an assertion: a missing value fails the test where it is used.
    files: ["tests/**/*.{ts,tsx}", "e2e/**/*.ts"],
    rules: { "@typescript-eslint/no-non-null-assertion": "off" },
  },
  prettier,
]);
