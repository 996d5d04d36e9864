/**
 * Browser error reporting without its weight on the first load: the layout's script only listens, and
 * the reporter (error-reporting.ts) is imported with the first `error` or `unhandledrejection` of the page; that
 * event and every later one go to the same reporter, so its per-page limits hold. A page without errors never
 * loads it.
 */
export function installErrorReportingLazily() {
  let reporter: Promise<(event: unknown) => void> | undefined;
  const onEvent = (event: Event) => {
    reporter ??= import('./error-reporting').then((m) => m.createErrorReporter());
    // A reporter that cannot load is dropped quietly: reporting must never become the error.
    reporter.then((report) => report(event), () => {});
  };
  addEventListener('error', onEvent);
  addEventListener('unhandledrejection', onEvent);
}
