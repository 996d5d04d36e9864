import type { Lang } from '../../../src/lib/lang';
import { configOf } from '../../config';
import type { WorkerEnv } from '../../env';
import { ERR } from '../../../src/schemas/error-codes';
import { REGISTRY_CONSENT_VERSION, type RegistryCheck, type RegistryVerdict, type ReviewRegistry } from '../../../src/schemas/registry';
import { GatewayError } from '../errors';
import { companyAuthority } from '../authority/service';
import { companyById } from '../companies/db';
import { administratorOf } from '../companies/db';
import { deliver } from '../delivery';
import { callRegistry, configuredKeys, networkSend, RegistryFailure, type RegistryAnswer, type RegistryQuery } from './providers';
import { STAND_IN_KEYS, standInSend } from './stand-in';
import {
  checkOf,
  claimDue,
  closeTasks,
  dueCompanies,
  enrolApproved,
  insertCheck,
  insertConsent,
  insertTask,
  latestCheck,
  openTasks,
  setWatched,
} from './db';
import type { Asker } from '../authority/db';

/**
 * The registry check of mainland companies (issue 42).
 *
 * - Before review, with the applicant's consent (a row with the text's version and language), the company's name
 *   and code and the legal representative's name and identity card number go to the first provider of
 *   REGISTRY_PROVIDERS that answers. The person's two fields are sent once and never stored, in D1 or in a log:
 *   a check keeps the verdict and which fields differed.
 * - A provider that fails, is throttled or does not answer within its share of DELIVERY_TOTAL_TIMEOUT_MS (at most
 *   DELIVERY_TIMEOUT_MS) gives way to the next; when none answers the verdict is "not checked". A check never
 *   blocks the application: it is asked after the company exists, and operators can ask again.
 * - The hourly Cron Trigger re-checks each approved mainland company once a month, at most
 *   REGISTRY_RECHECK_PER_RUN an hour; a change to deregistered, revoked, cancelled, suspended or not found
 *   opens an operator task and tells the company's administrator.
 */

export const MONTH_MS = 30 * 86_400_000;
/** A re-check no provider answered is tried again a day later. */
const RETRY_MS = 86_400_000;
/** The statuses that open a task when a re-check finds them. */
const ALARMING = new Set(['deregistered', 'revoked', 'cancelled', 'suspended', 'notFound']);

interface Outcome {
  verdict: RegistryVerdict;
  answer: RegistryAnswer | null;
  provider: string | null;
  tried: { provider: string; outcome: string; detail?: string }[];
}

const verdictOf = (answer: RegistryAnswer): RegistryVerdict =>
  !answer.found ? 'notFound' : answer.status && answer.status !== 'operating' ? 'notOperating' : answer.differing.length ? 'differs' : 'match';

/** Asks the providers in order (see above). `at` signs the requests; elapsed time is measured on the wall clock. */
export async function askRegistry(env: object, query: RegistryQuery, at: number): Promise<Outcome> {
  const config = configOf(env);
  const keys = configuredKeys(config);
  const started = Date.now();
  const tried: Outcome['tried'] = [];
  for (const name of config.registryProviders as ('tencent' | 'aliyun')[]) {
    const own = keys[name];
    // The stand-in exists in local runs only (gateway/app.ts, PORTAL_DEPLOYED_BUILD).
    const standIn = typeof PORTAL_DEPLOYED_BUILD === 'undefined' && !own && config.registryStandIn;
    if (!own && !standIn) {
      tried.push({ provider: name, outcome: 'unconfigured' });
      continue;
    }
    const left = config.deliveryTotalTimeout - (Date.now() - started);
    if (left <= 0) break;
    try {
      const [providerKeys, send] = typeof PORTAL_DEPLOYED_BUILD === 'undefined' && !own ? [STAND_IN_KEYS, standInSend] : [keys, networkSend];
      const answer = await callRegistry(name, providerKeys as typeof STAND_IN_KEYS, query, at, send, Math.min(config.deliveryTimeout, left));
      tried.push({ provider: name, outcome: 'answered' });
      return { verdict: verdictOf(answer), answer, provider: name, tried };
    } catch (error) {
      if (!(error instanceof RegistryFailure)) throw error;
      tried.push({ provider: name, outcome: error.kind, detail: error.detail });
      // The provider and its status only: never the company's code or the person's fields.
      console.log(JSON.stringify({ event: 'registry_failed', provider: name, kind: error.kind, detail: error.detail }));
    }
  }
  return { verdict: 'notChecked', answer: null, provider: null, tried };
}

async function record(db: D1Database, companyId: string, cause: RegistryCheck['cause'], outcome: Outcome, at: number): Promise<RegistryCheck> {
  const row = {
    company_id: companyId,
    cause,
    provider: outcome.provider,
    verdict: outcome.verdict,
    differing: (outcome.answer?.differing ?? []).join(','),
    registry_status: outcome.answer?.status ?? null,
    tried: JSON.stringify(outcome.tried),
    checked_at: at,
  };
  await insertCheck(db, row);
  return checkOf({ id: '', ...row });
}

/** The name the registry knows a mainland company by: its Chinese name, else the English one. */
const registeredName = (company: { name_en: string; name_cn: string | null }) => company.name_cn || company.name_en;

/** The applicant's check (POST agg-web/registry/check): consent, then the four elements once. */
export async function applicantCheck(
  caller: Asker & { db: D1Database; env: object; lang: Lang; now: number },
  request: { companyId: string; consentVersion: string; legalRepName: string; legalRepId: string },
): Promise<RegistryCheck> {
  await companyAuthority(caller.db, caller, request.companyId, 'manage');
  if (request.consentVersion !== REGISTRY_CONSENT_VERSION) throw new GatewayError(ERR.REGISTRY_CONSENT_STALE, { version: REGISTRY_CONSENT_VERSION });
  const company = await companyById(caller.db, request.companyId);
  if (!company) throw new GatewayError(ERR.COMPANY_NOT_FOUND);
  if (company.country_id !== 'CN' || !company.social_credit) throw new GatewayError(ERR.REGISTRY_CHECK_MAINLAND_ONLY);
  await insertConsent(caller.db, { companyId: company.id, userId: caller.userId, version: REGISTRY_CONSENT_VERSION, lang: caller.lang, at: caller.now });
  const outcome = await askRegistry(
    caller.env,
    { name: registeredName(company), code: company.social_credit, legalRep: { name: request.legalRepName, id: request.legalRepId } },
    caller.now,
  );
  return record(caller.db, company.id, 'application', outcome, caller.now);
}

/** An operator's check again (name and code: the legal representative was never kept). */
export async function operatorCheck(caller: { db: D1Database; env: object; now: number }, companyId: string): Promise<RegistryCheck> {
  const company = await companyById(caller.db, companyId);
  if (!company) throw new GatewayError(ERR.REVIEW_COMPANY_NOT_FOUND);
  if (company.country_id !== 'CN' || !company.social_credit) throw new GatewayError(ERR.REGISTRY_CHECK_MAINLAND_ONLY);
  const outcome = await askRegistry(caller.env, { name: registeredName(company), code: company.social_credit }, caller.now);
  return record(caller.db, company.id, 'operator', outcome, caller.now);
}

/** What the review page shows: the latest check and the open tasks. */
export async function registryOfCompany(db: D1Database, companyId: string): Promise<ReviewRegistry> {
  const latest = await latestCheck(db, companyId);
  return { latest: latest ? checkOf(latest) : null, tasks: await openTasks(db, companyId) };
}

/** A decision that suspends (blocks) the company settles its open registry tasks. */
export const settleRegistryTasks = (db: D1Database, companyId: string, at: number) => closeTasks(db, companyId, at);

/** The message to the administrator of a company whose registry status changed. */
export function registryChangeMessage(lang: Lang, company: { name: string; status: string; link: string | null }) {
  const zh = lang === 'zh';
  const status = (zh ? STATUS_ZH : STATUS_EN)[company.status] ?? company.status;
  const subject = zh ? `企业登记状态变更：${company.name}` : `Registry status changed: ${company.name}`;
  const lines = zh
    ? [`在国家企业登记信息的例行核验中，您的企业“${company.name}”的登记状态为：${status}。`, '平台运营人员将核实此情况；如有误，请联系客服并提供最新营业执照。', company.link && `详情：${company.link}`]
    : [
        `In the regular check against the national business registry, your company "${company.name}" is listed as: ${status}.`,
        'Our operators will look into it; if this is wrong, please contact support with your current business licence.',
        company.link && `Details: ${company.link}`,
      ];
  return { kind: 'registryChange' as const, lang, subject, text: lines.filter(Boolean).join('\n') };
}
const STATUS_EN: Record<string, string> = { deregistered: 'deregistered', revoked: 'licence revoked', cancelled: 'registration cancelled', suspended: 'suspended', notFound: 'not found in the registry' };
const STATUS_ZH: Record<string, string> = { deregistered: '注销', revoked: '吊销', cancelled: '撤销', suspended: '停业', notFound: '登记机关未查到' };

async function tellAdministrator(env: WorkerEnv, row: { company_id: string; name_en: string; name_cn: string | null; lang: Lang }, status: string, at: number): Promise<boolean> {
  const admin = await administratorOf(env.DB, row.company_id);
  if (!admin?.email) return false;
  const origin = configOf(env).portalOrigin;
  const message = registryChangeMessage(row.lang, { name: (row.lang === 'zh' && row.name_cn) || row.name_en, status, link: origin ? `${origin}/account` : null });
  try {
    await deliver(env, { channel: 'email', to: admin.email, ...message }, { now: at });
    return true;
  } catch (error) {
    console.error('registry change not delivered', error instanceof Error ? error.message : error);
    return false;
  }
}

/**
 * The monthly re-check, run by the hourly Cron Trigger (functions/worker.ts): approved mainland companies join the
 * watch list at a random point of the month, and each run checks at most REGISTRY_RECHECK_PER_RUN of those due,
 * one after another (a provider's rate is far above that). Each company due is claimed by one conditional UPDATE
 * first, so two runs at once check it once.
 */
export async function runRegistryRechecks(env: WorkerEnv, at: number): Promise<{ enrolled: number; checked: number; notChecked: number; changed: number; told: number }> {
  const config = configOf(env);
  const result = { enrolled: 0, checked: 0, notChecked: 0, changed: 0, told: 0 };
  if (!config.registryProviders.length) return result;
  result.enrolled = await enrolApproved(env.DB, at, MONTH_MS);
  for (const row of await dueCompanies(env.DB, at, config.registryRecheckPerRun)) {
    if (!(await claimDue(env.DB, row, at + RETRY_MS))) continue;
    const outcome = await askRegistry(env, { name: registeredName(row), code: row.social_credit }, at);
    await record(env.DB, row.company_id, 'monthly', outcome, at);
    if (outcome.verdict === 'notChecked') {
      result.notChecked++;
      continue;
    }
    result.checked++;
    const status = outcome.verdict === 'notFound' ? 'notFound' : (outcome.answer?.status ?? row.last_status);
    await setWatched(env.DB, row.company_id, at + MONTH_MS, status);
    if (status && ALARMING.has(status) && status !== row.last_status) {
      await insertTask(env.DB, { companyId: row.company_id, from: row.last_status, to: status, at });
      result.changed++;
      if (await tellAdministrator(env, row, status, at)) result.told++;
    }
  }
  return result;
}
