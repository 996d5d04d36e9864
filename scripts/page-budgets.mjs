// Bytes of JavaScript (gzip -9) a page may load: the one list that tests/e2e/budgets.spec.ts asserts and
// `npm run bench` prints beside its measurements (issues 9, 31, 46).
const KB = 1024;

export const BUDGET = {
  // React and react-dom alone are 66.6 KB; /login loads the form and its fields, the layout's script with tracking
  // and a small preload helper; the gateway calls, zod, passkeys, WeChat, the dialogs and error reporting load
  // only once used (astro.config.mjs).
  loginJs: 78 * KB,
  // The pages that paint the person's data at first paint (issue 46's decision): they read and check it with zod
  // at once (the architecture parses every answer with its schema), so the gateway chunk (12.5 KB) cannot wait.
  dataPageJs: 95 * KB,
  // Every other page, signed out and, behind sign-in, signed in as the person the page is for.
  pageJs: 90 * KB,
  /** Legal texts and the 404 page carry no framework: at most the layout's small header script. */
  staticJs: 3 * KB,
  css: 15 * KB,
};

/** The pages of BUDGET.dataPageJs. */
export const DATA_PAGES = ['/user_center', '/create_account', '/fill_account'];
/** The pages of BUDGET.loginJs. */
export const SIGN_IN_ENTRY_PAGES = ['/', '/login'];

/** The JavaScript budget of `path`; `plain` is true for the legal texts and the 404 page. */
export function jsBudgetOf(path, { plain = false } = {}) {
  if (SIGN_IN_ENTRY_PAGES.includes(path)) return BUDGET.loginJs;
  if (plain) return BUDGET.staticJs;
  if (DATA_PAGES.includes(path)) return BUDGET.dataPageJs;
  return BUDGET.pageJs;
}
