// ESLint for the console page (src/: ES modules in the browser, uPlot a global from its script
// tag) and its unit tests (test/, node); tests/console/eslint.config.mjs takes `consoleTests`
// from here for the browser/protocol tests. ESLint is installed here (package.json):
//   npx eslint . ../../../tests/console        (ctest: console_page_lint; docs/console.md)
import js from '@eslint/js';
import globals from 'globals';

// Browser globals that a missing local of the same name silently turns into something else.
const confusingBrowserGlobals = ['event', 'name', 'status', 'length', 'top', 'parent', 'self',
  'close', 'closed', 'open', 'opener', 'origin', 'stop', 'find', 'print', 'focus', 'blur',
  'external', 'frames', 'screen', 'scroll'];

const common = [
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module' },
    rules: {
      'no-unused-vars': ['error', { caughtErrors: 'all', varsIgnorePattern: '^_' }],
      'no-use-before-define': ['error', { functions: false, classes: true, variables: false }],
      eqeqeq: ['error', 'always'],
      'prefer-const': 'error',
      'no-var': 'error',
      'no-self-compare': 'error',
      'no-template-curly-in-string': 'error',
      'no-unmodified-loop-condition': 'error',
      'no-unreachable-loop': 'error',
      'no-constructor-return': 'error',
      'array-callback-return': 'error',
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      'no-throw-literal': 'error',
      radix: 'error',
    },
  },
];

/// tests/console: node test files whose page.evaluate() callbacks run in the page.
export const consoleTests = [
  ...common,
  { languageOptions: { globals: { ...globals.node, ...globals.browser } } },
];

export default [
  ...common,
  {
    files: ['src/**/*.js'],
    languageOptions: { globals: { ...globals.browser, uPlot: 'readonly' } },
    rules: { 'no-restricted-globals': ['error', ...confusingBrowserGlobals] },
  },
  {
    files: ['test/**/*.mjs', '*.mjs'],
    languageOptions: { globals: globals.node },
  },
];
