import type { Lang } from '../../../src/lib/lang';
import { configOf } from '../../config';
import { deliver, type DeliveryEnv } from '../delivery';
import { companyById } from '../companies/db';
import { administratorEmails } from '../grants/db';
import { administratorOperatorEmails } from '../operators/db';
import { fetchWithin, OutboundFailure } from '../../outbound';
import { auditRowById, auditStatement, operatorNamesOf, partiesOf } from '../audit/db';
import { runBatch } from '../identity/db/batch';
import { endpointAddressProblem } from './address';
import { claimDue, disableEndpointStatements, recordAttemptStatements, type DueDelivery } from './db';
import { protector, trailRow } from './personal';
import { openSecret, signedHeaders } from './signing';

/**
 * Delivery of the outbox (README "Event webhooks"), on the cron the back-channel logout already uses (every minute,
 * functions/worker.ts), and at once for a ping or a resend. Each due delivery is claimed with a lease, so runs in
 * parallel never send one twice at the same time, signed afresh (a new webhook-timestamp and webhook-signature on
 * every attempt, the same webhook-id) and POSTed without following redirects. Every attempt is recorded (time,
 * answer code, what happened; never the body).
 *
 * - 2xx: delivered. 410: the endpoint is stopped (`gone`) and its waiting deliveries become dead letters.
 * - Anything else (another status, a redirect, a time-out, no connection): tried again after RETRY_SCHEDULE_MS
 *   (30 s, 2 min, 10 min, 1 h, 6 h, 24 h after each failure); after the last it is a dead letter, listed, and
 *   sent again on asking.
 * - An endpoint whose attempts have all failed for FAILING_LIMIT_MS (5 days) is stopped (`failing`): its
 *   company's trail records it (webhook.endpoint_disabled) and the user center shows it stopped.
 * - An endpoint stopped either way: its owner's administrators are told by e-mail (message kind webhookStopped), a
 *   company's administrators for a company's endpoint, the operators' administrators (admin operators whose login is
 *   an e-mail) for a platform endpoint; once, by the run whose stop changed the endpoint; a refused e-mail does not
 *   undo the stop.
 */
export const RETRY_SCHEDULE_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000, 86_400_000] as const;
export const ATTEMPTS_MAX = RETRY_SCHEDULE_MS.length + 1;
export const FAILING_LIMIT_MS = 5 * 24 * 3_600_000;
/** Deliveries one run sends at most; the rest wait for the next minute. */
const RUN_LIMIT = 100;

type Env = DeliveryEnv;

export interface DeliveryRun {
  delivered: number;
  failed: number;
  dead: number;
}

/** Sends every delivery due at `at` (or only `only`); what each attempt did is recorded before this returns. */
export async function deliverWebhooks(env: Env, at: number, { only }: { only?: string } = {}): Promise<DeliveryRun> {
  const config = configOf(env);
  const due = await claimDue(env.DB, at, config.deliveryTimeout * 3, RUN_LIMIT, only);
  const run: DeliveryRun = { delivered: 0, failed: 0, dead: 0 };
  await Promise.all(
    due.map(async (delivery) => {
      const outcome = await attempt(env, delivery, at, config.devRoutes, config.deliveryTimeout);
      const attempts = delivery.attempts + 1;
      const gone = outcome.code === 410;
      const status = outcome.ok ? 'delivered' : gone || attempts >= ATTEMPTS_MAX ? 'dead' : 'pending';
      if (outcome.ok) run.delivered++;
      else if (status === 'dead') run.dead++;
      else run.failed++;
      const statements = recordAttemptStatements(env.DB, {
        deliveryId: delivery.id,
        endpointId: delivery.endpoint_id,
        at,
        answerCode: outcome.code,
        result: outcome.result,
        ok: outcome.ok,
        attempts,
        status,
        nextAt: status === 'pending' ? at + RETRY_SCHEDULE_MS[attempts - 1]! : null,
      });
      const failingTooLong = !outcome.ok && delivery.failing_since !== null && at - delivery.failing_since >= FAILING_LIMIT_MS;
      const stopAt = gone || failingTooLong ? statements.length : -1;
      if (stopAt >= 0) statements.push(...stopStatements(env.DB, delivery, gone ? 'gone' : 'failing', at));
      const results = await runBatch(env.DB, statements);
      if (stopAt >= 0 && results[stopAt]?.meta.changes) await tellStopped(env, delivery, gone ? 'gone' : 'failing', at);
    }),
  );
  return run;
}

function stopStatements(db: D1Database, delivery: DueDelivery, reason: 'gone' | 'failing', at: number): D1PreparedStatement[] {
  const [stop, ...rest] = disableEndpointStatements(db, delivery.endpoint_id, reason, at);
  const record = delivery.company_id
    ? [auditStatement(db, { at, actor: { kind: 'system', id: null }, action: 'webhook.endpoint_disabled', target: { kind: 'company', id: delivery.company_id }, detail: { endpointId: delivery.endpoint_id, reason } }, { ifChanged: true })]
    : [auditStatement(db, { at, actor: { kind: 'system', id: null }, action: 'webhook.endpoint_disabled', target: { kind: 'webhook_endpoint', id: delivery.endpoint_id }, detail: { reason } }, { ifChanged: true })];
  return [stop!, ...record, ...rest];
}

/**
 * The e-mail that an endpoint no longer receives events: to a company's administrators (`company`, its name), or to
 * the operators' administrators for a platform endpoint (`company` null).
 */
export function webhookStoppedMessage(lang: Lang, stopped: { company: string | null; url: string; reason: 'gone' | 'failing'; link: string | null }) {
  const zh = lang === 'zh';
  const { company } = stopped;
  const subject = zh ? `事件 Webhook 已停止：${company ?? '平台'}` : `Event webhook stopped: ${company ?? 'the platform'}`;
  const why = zh
    ? stopped.reason === 'gone'
      ? '该地址答复 410（不再接收）。'
      : '该地址已连续 5 天未能成功接收。'
    : stopped.reason === 'gone'
      ? 'The address answered 410 (gone).'
      : 'Every delivery to the address has failed for 5 days.';
  const lines = zh
    ? [
        company === null ? `平台的事件 Webhook 端点 ${stopped.url} 已停止接收事件。${why}` : `贵公司“${company}”的事件 Webhook 端点 ${stopped.url} 已停止接收事件。${why}`,
        `未送达的消息列在“发送失败”中，端点恢复后可重新发送。请在${company === null ? '运营控制台' : '用户中心'}检查端点并重新启用。`,
        stopped.link && `${company === null ? '运营控制台' : '用户中心'}：${stopped.link}`,
      ]
    : [
        company === null ? `The platform's event webhook endpoint ${stopped.url} no longer receives events. ${why}` : `The event webhook endpoint ${stopped.url} of your company "${company}" no longer receives events. ${why}`,
        `The messages it missed are listed as failed and can be sent again once it works. Check the endpoint in the ${company === null ? "operators' console" : 'user center'} and turn it on again.`,
        stopped.link && `${company === null ? "Operators' console" : 'User center'}: ${stopped.link}`,
      ];
  return { kind: 'webhookStopped' as const, lang, subject, text: lines.filter(Boolean).join('\n') };
}

/** Tells the stopped endpoint's owner: each of its administrators, in their language, through the delivery path. */
async function tellStopped(env: Env, delivery: DueDelivery, reason: 'gone' | 'failing', at: number): Promise<void> {
  const origin = configOf(env).portalOrigin;
  const link = (path: string) => (origin ? `${origin}${path}` : null);
  let letters: { to: string; message: ReturnType<typeof webhookStoppedMessage> }[];
  if (delivery.company_id) {
    const [company, emails] = await Promise.all([companyById(env.DB, delivery.company_id), administratorEmails(env.DB, delivery.company_id)]);
    if (!company) return;
    const message = webhookStoppedMessage(company.lang, { company: (company.lang === 'zh' && company.name_cn) || company.name_en, url: delivery.url, reason, link: link('/user_center') });
    letters = emails.map((to) => ({ to, message }));
  } else {
    const operators = await administratorOperatorEmails(env.DB);
    letters = operators.map(({ email, lang }) => ({ to: email, message: webhookStoppedMessage(lang, { company: null, url: delivery.url, reason, link: link('/ops/webhooks') }) }));
  }
  for (const { to, message } of letters) {
    try {
      await deliver(env, { channel: 'email', to, ...message }, { now: at });
    } catch (error) {
      console.error('webhook stop not delivered', error instanceof Error ? error.message : error);
    }
  }
}

interface Outcome {
  ok: boolean;
  code: number | null;
  result: string;
}

async function attempt(env: Env, delivery: DueDelivery, at: number, loopbackHttp: boolean, timeoutMs: number): Promise<Outcome> {
  // Checked again at every attempt: the rule may have changed since the endpoint was added.
  const problem = endpointAddressProblem(delivery.url, { loopbackHttp });
  if (problem) return { ok: false, code: null, result: `address refused: ${problem}` };
  let body: string;
  let secrets: string[];
  try {
    body = JSON.stringify(await payloadOf(env, delivery));
    secrets = [await openSecret(env, delivery.endpoint_id, delivery.sealed_secret)];
    if (delivery.previous_sealed_secret && (delivery.previous_secret_until ?? 0) > at) {
      secrets.push(await openSecret(env, delivery.endpoint_id, delivery.previous_sealed_secret));
    }
  } catch (error) {
    console.error('webhook payload', delivery.id, error instanceof Error ? error.message : error);
    return { ok: false, code: null, result: 'payload error' };
  }
  try {
    const answer = await fetchWithin(
      delivery.url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'shipping-portal-webhooks/1', ...signedHeaders(secrets, delivery.id, at, body) },
        body,
        redirect: 'manual',
      },
      timeoutMs,
    );
    await answer.body?.cancel();
    const ok = answer.status >= 200 && answer.status < 300;
    return { ok, code: answer.status, result: ok ? 'delivered' : answer.status >= 300 && answer.status < 400 ? 'redirect not followed' : `HTTP ${answer.status}` };
  } catch (error) {
    return { ok: false, code: null, result: error instanceof OutboundFailure ? error.reason : 'error' };
  }
}

/** The body: Standard Webhooks' `{ type, timestamp, data }`, personal fields protected as the endpoint asks. */
async function payloadOf(env: Env, delivery: DueDelivery) {
  const protect = await protector(env, delivery.company_id, delivery.personal_fields);
  const data = delivery.audit_id !== null ? await auditData(env.DB, delivery.audit_id) : (JSON.parse(delivery.data) as Record<string, unknown>);
  return { type: delivery.type, timestamp: new Date(delivery.event_at).toISOString(), data: await protect(data) };
}

async function auditData(db: D1Database, auditId: number) {
  const row = await auditRowById(db, auditId);
  if (!row) throw new Error(`audit row ${auditId} is missing`);
  const [parties, operatorName] = await Promise.all([partiesOf(db, [row]), operatorNamesOf(db, [row])]);
  return trailRow(row, parties, operatorName) as unknown as Record<string, unknown>;
}
