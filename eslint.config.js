// The linter of the browser's scripts (src/piquet/web/static): `npx eslint src/piquet/web/static`
// (tests/test_web_page.py runs it). ESLint's recommended rules, and a few that catch slips.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["src/piquet/web/static/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
  },
  {
    files: ["src/piquet/web/static/*.mjs"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.node },
    },
  },
  {
    files: ["src/piquet/web/static/*.js", "src/piquet/web/static/*.mjs"],
    rules: {
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
      "no-implicit-globals": "error",
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      "no-use-before-define": ["error", { functions: false, classes: false }],
    },
  },
  {
    // The pages report on the page, not the console; check.mjs is a command and prints its results.
    files: ["src/piquet/web/static/*.js"],
    rules: { "no-console": ["error", { allow: ["warn", "error"] }] },
  },
];
