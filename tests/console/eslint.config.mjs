// ESLint for the browser/protocol tests: the console page's rules, with node and (for the
// page.evaluate() callbacks) browser globals. ESLint is installed in io/console/web; run it
// from there: `npx eslint . ../../../tests/console` (ctest: console_page_lint).
export { consoleTests as default } from '../../io/console/web/eslint.config.mjs';
