/**
 * Browser error reporting: uncaught errors and unhandled promise rejections of a page are
 * posted to the Worker (POST /api/agg-web/client/error), which logs them with the edge's trace id and stores
 * them. At most MAX_REPORTS_PER_PAGE reports leave a page, the same message only once, and the page's query and
 * fragment never (they may carry a hand-off blob or a code). Reporting never throws and never reports itself.
 *
 * Framework-free, and typed without the DOM library so that the Worker's type check accepts it too:
 * `installErrorReporting()`, or in the layout's script `installErrorReportingLazily()` (error-reporting-lazy.ts),
 * which loads this module with the first error.
 */

export const CLIENT_ERROR_PATH = '/api/agg-web/client/error';
export const MAX_REPORTS_PER_PAGE = 3;

/** What the Worker accepts (functions/gateway/tracking/routes.ts, clientErrorRequest). */
export interface ClientErrorReport {
  message: string;
  stack?: string;
  url: string;
  /** The trace id of a failed gateway call, when the error carries one (`error.traceId`). */
  traceId?: string;
}

/** The parts of `window` this needs; tests pass an EventTarget with a location. */
export interface ReportingTarget {
  addEventListener(type: string, listener: (event: unknown) => void): void;
  removeEventListener(type: string, listener: (event: unknown) => void): void;
  location: { href: string };
}

/** origin + path of a page URL; the query and fragment are dropped. */
export function pageUrl(href: string): string {
  try {
    const url = new URL(href);
    return url.origin + url.pathname;
  } catch {
    return '';
  }
}

/** Message, stack and trace id of whatever was thrown or rejected. */
export function describeError(reason: unknown): { message: string; stack?: string; traceId?: string } {
  if (reason && typeof reason === 'object') {
    const r = reason as { name?: unknown; message?: unknown; stack?: unknown; traceId?: unknown };
    const message = typeof r.message === 'string' && r.message ? `${typeof r.name === 'string' ? `${r.name}: ` : ''}${r.message}` : safeString(reason);
    return {
      message,
      stack: typeof r.stack === 'string' ? r.stack : undefined,
      traceId: typeof r.traceId === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(r.traceId) ? r.traceId : undefined,
    };
  }
  return { message: safeString(reason) };
}

function safeString(value: unknown): string {
  try {
    return typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

const defaultSend = (report: ClientErrorReport) => {
  // keepalive lets the report leave while the page unloads; a failure is dropped, never reported.
  // (Not an inline literal: the Workers' RequestInit type, which the Worker's type check uses, lacks keepalive.)
  const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(report), keepalive: true };
  fetch(CLIENT_ERROR_PATH, init).catch(() => {});
};

/**
 * A handler for `error` and `unhandledrejection` events that sends up to `max` reports of them (the events of
 * one page share it). `location` gives the page URL at the time of each report.
 */
export function createErrorReporter(
  options: { location?: { href: string }; send?: (report: ClientErrorReport) => void; max?: number } = {},
): (event: unknown) => void {
  const send = options.send ?? defaultSend;
  const max = options.max ?? MAX_REPORTS_PER_PAGE;
  const sent = new Set<string>();

  const report = (reason: unknown, fallbackMessage?: string) => {
    try {
      if (sent.size >= max) return;
      const described = describeError(reason ?? fallbackMessage);
      const message = (described.message || fallbackMessage || 'Unknown error').slice(0, 1000);
      if (sent.has(message)) return;
      sent.add(message);
      send({
        message,
        ...(described.stack ? { stack: described.stack.slice(0, 8000) } : {}),
        url: pageUrl((options.location ?? (globalThis as unknown as ReportingTarget).location).href),
        ...(described.traceId ? { traceId: described.traceId } : {}),
      });
    } catch {
      // Reporting must never become the error.
    }
  };
  return (event: unknown) => {
    const e = event as { type?: unknown; error?: unknown; message?: unknown; reason?: unknown };
    if (e.type === 'unhandledrejection') report(e.reason, 'Unhandled promise rejection');
    else report(e.error, typeof e.message === 'string' ? e.message : undefined);
  };
}

/**
 * Listens for `error` and `unhandledrejection` on `target` (the window by default) and sends up to `max`
 * reports. Answers a function that stops listening.
 */
export function installErrorReporting(
  options: { target?: ReportingTarget; send?: (report: ClientErrorReport) => void; max?: number } = {},
): () => void {
  const target = options.target ?? (globalThis as unknown as ReportingTarget);
  const onEvent = createErrorReporter({ location: target.location, send: options.send, max: options.max });
  target.addEventListener('error', onEvent);
  target.addEventListener('unhandledrejection', onEvent);
  return () => {
    target.removeEventListener('error', onEvent);
    target.removeEventListener('unhandledrejection', onEvent);
  };
}
