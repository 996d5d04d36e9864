import { requestUrl } from './request-url';
import type { Context, MiddlewareHandler } from 'hono';
import { csrf } from 'hono/csrf';
import { html } from 'hono/html';
import * as z from 'zod/mini';
import { workerMessagesFor } from '../../src/i18n/worker';
import type { Lang } from '../../src/lib/lang';
import { RETURN_PARAM } from '../../src/lib/routes';
import { SUCCESS_CODE } from '../../src/schemas/envelope';
import { HANDOFF_PARAMS, handoffIntakeAnswer, type HandoffBlobs, type HandoffFailure, type HandoffParam } from '../../src/schemas/handoff';
import type { EdgeBindings } from '../env';
import { callGateway, type GatewayFetch } from './gateway-call';
import { isNavigatorHost, visitorLang } from './lang';
import { buildRedirect, safeRedirect } from './redirect-target';
import { secondStepCookie, setSecondStepCookie, setSessionCookies, takeSecondStep, takeSession, tokenCookie } from './session-cookies';

/** The gateway's intake of the blobs (functions/gateway/handoff/routes.ts). */
const INTAKE_PATH = '/edge/v1/handoff/intake';

const paramNames = Object.keys(HANDOFF_PARAMS) as HandoffParam[];

function blobsOf(read: (name: HandoffParam) => string[]): HandoffBlobs | undefined {
  const blobs: HandoffBlobs = {};
  for (const name of paramNames) {
    const values = read(name);
    // A repeated parameter is refused as invalid: which of them would speak?
    if (values.length > 1) return undefined;
    if (values.length === 1) blobs[name] = values[0];
  }
  return blobs;
}

/** Where a hand-off sends the visitor on: a path on this site, else the home page. */
const SAME_SITE_ONLY = { origins: [], fallback: '/', allowHttpLocalhost: false } as const;

/** The same page without its hand-off parameters, as a same-site Location ('/' if the path is not plain). */
function cleanLocation(url: URL): string {
  const query = new URLSearchParams(url.search);
  for (const name of paramNames) query.delete(name);
  return buildRedirect({ path: url.pathname, query }, SAME_SITE_ONLY);
}

/**
 * Hands the blobs to the gateway (the same call path as /api: GATEWAY_URL, else the embedded gateway) and
 * turns its answer into this browser's cookies and a 303 to `next`, the account-choice page, or the refusal
 * page. The gateway's answer never reaches the browser as such: only as HttpOnly cookies.
 */
async function takeHandoff(c: Context<EdgeBindings>, embedded: GatewayFetch, blobs: HandoffBlobs, next: string, askBeforeSwitching: boolean) {
  const lang = visitorLang(c);
  const { answer, traceId } = await callGateway(c, embedded, {
    path: INTAKE_PATH,
    method: 'POST',
    body: JSON.stringify({ blobs, askBeforeSwitching }),
    contentType: 'application/json',
    edgeCall: true,
  });
  const envelope = (await answer.json().catch(() => null)) as { code?: unknown; data?: unknown } | null;
  const parsed = envelope?.code === SUCCESS_CODE ? handoffIntakeAnswer.safeParse(envelope.data) : undefined;
  if (!parsed?.success) {
    // A blob the gateway's schema refuses (too long, say) is invalid; a gateway that fails is no fault of the link.
    if (answer.status >= 500) console.error(JSON.stringify({ event: 'handoff_gateway_failed', traceId, status: answer.status }));
    return c.html(handoffErrorPage(lang, 'invalid'), answer.status >= 500 ? 502 : 400);
  }
  const outcome = parsed.data;
  const url = requestUrl(c);
  const label = c.get('config').navigatorHostLabel;
  switch (outcome.outcome) {
    case 'refused':
      return c.html(handoffErrorPage(lang, outcome.reason), outcome.reason === 'blocked' ? 403 : 400);
    case 'choose':
      return c.html(accountChoicePage(lang, blobs, next), 200);
    case 'secondStep': {
      // No session: the second-step cookie, and the second-step screen of the sign-in page; the safe return path
      // rides along as RETURN_PARAM, which the sign-in follows once the second step is passed.
      const owed = takeSecondStep(envelope);
      if (owed) setSecondStepCookie(c, secondStepCookie(url, label), owed.challenge, owed.expiresIn);
      const signIn = isNavigatorHost(url.hostname, label) ? '/navigator_login' : '/login';
      // Which step it is (two-step's, or the new-device challenge of issue 44) the screen asks the gateway itself.
      return c.redirect(buildRedirect({ path: signIn, query: new URLSearchParams({ secondStep: '1', [RETURN_PARAM]: next }) }, SAME_SITE_ONLY), 303);
    }
    case 'signedIn': {
      const session = takeSession(envelope);
      if (session) setSessionCookies(c, tokenCookie(url, label), session.token);
      return c.redirect(next, 303);
    }
    case 'nobody':
      return c.redirect(next, 303);
  }
}

/**
 * Hand-off intake: a page request carrying `token`, `userToken` or `userNameAndPwd` has its blobs used by the
 * gateway; session blobs, and credentials that pass the password sign-in, start a session (HttpOnly cookie +
 * marker). Credentials of a person with two-step on start none: they lead to /login's second step. The answer
 * is a 303 to the same URL without those parameters, or a 400 page in the visitor's language with no session.
 *
 * A blob for someone else than the person already signed in on this browser never replaces that session
 * silently: the gateway uses nothing, and a page asks which account to continue with; the other account takes
 * over only by a same-origin POST (handoffContinue), the person's own click.
 */
export const handoffIntake =
  (embedded: GatewayFetch): MiddlewareHandler<EdgeBindings> =>
  async (c, next) => {
    const url = requestUrl(c);
    const isPage = c.req.method === 'GET' || c.req.method === 'HEAD';
    if (!isPage || /^\/api(\/|$)/.test(url.pathname) || !paramNames.some((name) => url.searchParams.has(name))) {
      return next();
    }
    // The blobs are in this URL: keep it out of any Referer and any cache, whatever the outcome.
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'no-store');
    const blobs = blobsOf((name) => url.searchParams.getAll(name));
    if (!blobs) return c.html(handoffErrorPage(visitorLang(c), 'invalid'), 400);
    return takeHandoff(c, embedded, blobs, cleanLocation(url), true);
  };

/** Where the account-choice page posts the person's choice of the other account. */
export const HANDOFF_CONTINUE_PATH = '/handoff/continue';

const continueForm = z.object({
  next: z.string().check(z.maxLength(2048)),
  token: z.optional(z.string().check(z.maxLength(4096))),
  userToken: z.optional(z.string().check(z.maxLength(4096))),
  userNameAndPwd: z.optional(z.string().check(z.maxLength(4096))),
});

const continueCsrf = (c: Context<EdgeBindings>) =>
  csrf({ origin: (origin) => c.get('config').siteOrigins.includes(origin), secFetchSite: 'same-origin' });

/**
 * POST from the account-choice page: the person chose the other account. Hono's `csrf` admits only a form
 * posted by this site's own page (Sec-Fetch-Site same-origin, or a configured Origin); the blobs are then
 * used as on arrival and the new session replaces the old one.
 */
export const handoffContinue =
  (embedded: GatewayFetch) =>
  async (c: Context<EdgeBindings>): Promise<Response> => {
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'no-store');
    const lang = visitorLang(c);
    let allowed = false;
    try {
      await continueCsrf(c)(c, async () => {
        allowed = true;
      });
    } catch {
      allowed = false;
    }
    if (!allowed) return c.html(handoffErrorPage(lang, 'invalid'), 403);
    const form = continueForm.safeParse(await c.req.parseBody().catch(() => null));
    const blobs = form.success ? blobsOf((name) => (form.data[name] === undefined ? [] : [form.data[name]!])) : undefined;
    if (!form.success || !blobs || Object.keys(blobs).length === 0) return c.html(handoffErrorPage(lang, 'invalid'), 400);
    return takeHandoff(c, embedded, blobs, safeRedirect(form.data.next, SAME_SITE_ONLY), false);
  };

const page = (lang: Lang, title: string, body: ReturnType<typeof html>) => html`<!doctype html>
<html lang="${lang === 'zh' ? 'zh-CN' : 'en'}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title>
<style>
:root{color-scheme:light;font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans SC','PingFang SC','Microsoft YaHei',sans-serif;color:#1c2733;background:#f3f6f9;line-height:1.5}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:16px}
main{background:#fff;border:1px solid #d5dde6;border-radius:10px;padding:24px;max-width:30rem;width:100%}
h1{font-size:1.25rem;color:#0b3558;margin:0 0 12px}
a{color:#0f62ad}
.actions{display:flex;flex-wrap:wrap;gap:12px;margin-top:20px;align-items:center}
button{font:inherit;border:0;border-radius:10px;background:#0f62ad;color:#fff;padding:10px 16px;cursor:pointer}
button:hover{background:#0a4c88}
:focus-visible{outline:none;box-shadow:0 0 0 3px #fff,0 0 0 5px #0f62ad}
</style></head>
<body><main>${body}</main></body>
</html>
`;

/** The small localised page of a refused hand-off. */
export function handoffErrorPage(lang: Lang, reason: HandoffFailure) {
  const m = workerMessagesFor(lang).handoff;
  return page(lang, m.title, html`<h1>${m.title}</h1><p data-handoff-error="${reason}">${m[reason]}</p><p><a href="/login">${m.backToLogin}</a></p>`);
}

/**
 * The page that asks which account to continue with: keeping the current one is a plain link to the clean
 * URL; the other account needs the form's POST. The blobs ride in the form, not in any URL.
 */
export function accountChoicePage(lang: Lang, blobs: HandoffBlobs, next: string) {
  const m = workerMessagesFor(lang).handoff;
  const fields = paramNames.filter((name) => blobs[name] !== undefined).map((name) => html`<input type="hidden" name="${name}" value="${blobs[name]}">`);
  return page(
    lang,
    m.switchTitle,
    html`<h1>${m.switchTitle}</h1><p>${m.switchBody}</p><p>${m.switchHint}</p>
<form method="post" action="${HANDOFF_CONTINUE_PATH}" data-handoff-choice><input type="hidden" name="next" value="${next}">${fields}
<div class="actions"><a href="${next}" data-keep-current>${m.keepCurrent}</a><button type="submit">${m.continueOther}</button></div></form>`,
  );
}
