// ESLint over the web client (web/js) and these tests, run by lint.sh (scripts/test) from the
// repository's root with `-c` (the config lives here, beside the packages): the recommended
// rules, with the browser's globals for the pages and Node's for the tests.
import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    files: ['web/js/**/*.js'],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: globals.browser },
  },
  {
    files: ['tests/browser/**/*.mjs', 'tests/browser/**/*.js'],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
  },
  { ignores: ['tests/browser/node_modules/**'] },
];
