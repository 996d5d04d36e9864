import { zipSync, strToU8 } from 'fflate';
import { configOf } from '../../config';
import type { WorkerEnv } from '../../env';
import { GatewayError } from '../errors';
import { auditStatement, ownEventStatement } from '../audit/db';
import { findUserById, findUserByIdentity, type UserRow } from '../identity/db/people';
import { isUniqueViolation, runBatch } from '../identity/db/batch';
import { consumeCode } from '../codes/service';
import { sendSecurityNotice } from '../delivery/security-notice';
import { supportContact } from '../account/support';
import { deliver } from '../delivery';
import { noticeDay, noticeTime } from '../../../src/lib/notice-time';
import { supportContactSentence } from '../../../src/schemas/support';
import { emailRecipient, phoneRecipient } from '../identity/sign-in-names';
import type { Lang } from '../../../src/lib/lang';
import { activityOf } from '../sessions/activity';
import { ERR } from '../../../src/schemas/error-codes';
import { DATA_COPY_HOURS } from '../../../src/schemas/data-map';
import { connectedApps, endAllGrantsOfStatements } from '../oidc/db';
import { bindingsOfUser } from '../social/db';
import { newSecret, tokenHash } from '../identity/tokens';
import { consumeStatement, SINGLE_USE } from '../identity/db/single-use';
import { revokeAllSessionsStatement } from '../identity/db/sessions';
import { tellConnectedApps } from '../oidc/logout';
import { CONSENT_PURPOSES, EXPORT_FORMAT, EXPORT_VERSION, type ConsentPurpose, type ContactChangeRequest, type DataRightsState } from '../../../src/schemas/data-rights';
import {
  agreementsOf,
  claimNextCopy,
  closeStatement,
  contactChangeStatement,
  contactUndoByHash,
  contactUndoInsertStatement,
  undoEmailStatements,
  consentChangesOf,
  consentChangeStatement,
  copiesOf,
  copyDownloadedStatement,
  copyReadyStatement,
  copyRequestStatement,
  erasureStatements,
  expiredCopies,
  filesForCopy,
  keepStatement,
  lastAdministratorOf,
  claimSkippedErasures,
  companiesKeepingErasure,
  markCopiesExpired,
  markCopyFailed,
  membershipsForCopy,
  registryCheckedOf,
  ownReadyCopy,
  personalObjectsOf,
  secondFactorsForCopy,
  sessionsForCopy,
  devicesForCopy,
  signInsForCopy,
  dueForErasure,
  consentWithdrawn,
} from './db';
import { emitEvent } from '../events/db';

/**
 * A person's rights over their data (PIPL arts. 44–47; security baseline "Personal information"): see what the
 * portal holds (src/schemas/data-map.ts), take a copy, withdraw a separate consent, close the account. Copies
 * and erasures are made by the scheduled job (jobs.ts); the routes only ask for them.
 */

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** A copy whose maker stopped (an isolate ended half-way) is made again after this long. */
export const COPY_STALE_MS = 10 * 60 * 1000;

/** Who acts and from where, for the audit rows. */
export interface Actor {
  userId: string;
  at: number;
  network: string | null;
}

/** What the person's "Your data" part shows. */
export async function stateOf(env: WorkerEnv, user: UserRow, at: number): Promise<DataRightsState> {
  const db = env.DB;
  const [copies, agreements, changes, registryChecked] = await Promise.all([
    copiesOf(db, user.id),
    agreementsOf(db, user.id),
    consentChangesOf(db, user.id),
    registryCheckedOf(db, user.id),
  ]);
  const latest = copies[0];
  const nextCopyAt = latest && latest.requested_at + DAY_MS > at ? latest.requested_at + DAY_MS : null;
  return {
    copies: copies.map((row) => ({
      id: row.id,
      // A ready copy past its hours is expired whether or not the job has removed its file yet.
      status: row.status === 'ready' && row.expires_at !== null && row.expires_at <= at ? 'expired' : row.status,
      requestedAt: row.requested_at,
      readyAt: row.ready_at,
      expiresAt: row.expires_at,
      size: row.size,
      downloadedAt: row.downloaded_at,
    })),
    nextCopyAt,
    agreements: agreements.map((row) => ({ document: row.document, version: row.version, agreedAt: row.agreed_at })),
    consents: CONSENT_PURPOSES.map((purpose) => {
      const last = changes.filter((row) => row.purpose === purpose).at(-1);
      return { purpose, granted: last ? last.granted === 1 : true, changedAt: last?.changed_at ?? null };
    }),
    closure: user.closes_at !== null && user.closing_since !== null ? { since: user.closing_since, closesAt: user.closes_at } : null,
    registryChecked,
    coolingOffDays: configOf(env).closureCoolingOffDays,
    // The local helpers' switch (no ENVIRONMENT): wrangler dev runs no cron, so the page offers to run the job.
    localRun: configOf(env).devRoutes,
  };
}

/**
 * Asks for a copy: one a day (DR0001 with the time of the next), recorded in the audit trail with the request. The
 * copy is bound to the asking session (`sessionHash`, whose fresh proof the route checked): see downloadCopy.
 */
export async function requestCopy(db: D1Database, actor: Actor, sessionHash: string): Promise<void> {
  // 122 random bits as 32 hex digits: the id is the server's, never guessable from another.
  const id = crypto.randomUUID().replaceAll('-', '');
  const [inserted] = await runBatch(db, [
    copyRequestStatement(db, { id, userId: actor.userId, at: actor.at, since: actor.at - DAY_MS, sessionHash }),
    ownEventStatement(db, { at: actor.at, userId: actor.userId, action: 'user.data_copy_requested', network: actor.network }, { onlyIfChanged: true }),
  ]);
  if (!inserted?.meta.changes) {
    const [latest] = await copiesOf(db, actor.userId, 1);
    throw new GatewayError(ERR.DATA_COPY_DAILY, { nextAt: latest ? latest.requested_at + DAY_MS : actor.at + DAY_MS });
  }
}

/**
 * The person's own ready copy as a download, recorded; DR0002 for any other id, person or moment, and for a session
 * that neither asked for it with its fresh proof nor has a fresh proof now (a WeChat scan, a shared sign-in link or
 * a hand-off never proved the person: README "A person's rights over their data").
 */
export async function downloadCopy(env: WorkerEnv, actor: Actor, id: string, reader: { sessionHash: string; fresh: boolean }): Promise<Response> {
  const copy = await ownReadyCopy(env.DB, id, actor.userId, actor.at, reader);
  const object = copy ? await env.UPLOADS.get(copy.r2_key) : null;
  if (!copy || !object) throw new GatewayError(ERR.DATA_COPY_NOT_AVAILABLE);
  await runBatch(env.DB, [
    copyDownloadedStatement(env.DB, id, actor.userId, actor.at),
    ownEventStatement(env.DB, { at: actor.at, userId: actor.userId, action: 'user.data_copy_downloaded', network: actor.network }),
  ]);
  const day = new Date(actor.at).toISOString().slice(0, 10);
  return new Response(object.body, {
    headers: {
      'content-type': 'application/zip',
      'content-length': String(copy.size),
      'content-disposition': `attachment; filename="personal-data-${day}.zip"`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    },
  });
}

/** Gives or withdraws a separate consent; each change is a row with its time and an audit row. */
export async function changeConsent(db: D1Database, actor: Actor, purpose: ConsentPurpose, granted: boolean): Promise<void> {
  await runBatch(db, [
    consentChangeStatement(db, { userId: actor.userId, purpose, granted, at: actor.at }),
    ownEventStatement(db, {
      at: actor.at,
      userId: actor.userId,
      action: granted ? 'user.consent_given' : 'user.consent_withdrawn',
      network: actor.network,
      detail: { purpose },
    }),
  ]);
}

/**
 * Starts the cooling-off (CLOSURE_COOLING_OFF_DAYS). A company's last active administrator is refused (DR0003,
 * naming the companies); a closure already under way stays as it is, so 20 parallel requests make one closure.
 * The owner is told at the account's e-mail, else by SMS (issue 47: a phished password or an unlocked laptop is
 * enough to ask), in the background; the language of the request is kept for the erasure's notice.
 */
export async function closeAccount(env: WorkerEnv, actor: Actor, { lang = 'zh', background = () => {} }: { lang?: Lang; background?: (work: Promise<void>) => void } = {}): Promise<void> {
  const closesAt = actor.at + configOf(env).closureCoolingOffDays * DAY_MS;
  const [changed] = await runBatch(env.DB, [
    closeStatement(env.DB, actor.userId, actor.at, closesAt, lang),
    ownEventStatement(env.DB, { at: actor.at, userId: actor.userId, action: 'user.closure_requested', network: actor.network, detail: { closesAt } }, { onlyIfChanged: true }),
  ]);
  if (changed?.meta.changes) {
    const user = await findUserById(env.DB, actor.userId);
    if (user) background(tellClosure(env, user, { stage: 'requested', at: actor.at, closesAt, lang }));
    return;
  }
  const user = await findUserById(env.DB, actor.userId);
  if (user?.closes_at != null) return;
  const companies = await lastAdministratorOf(env.DB, actor.userId);
  if (companies.length) throw new GatewayError(ERR.CLOSING_LAST_ADMINISTRATOR, { companies });
  throw new GatewayError(ERR.ACCOUNT_ERASED);
}

/**
 * The owner's notice of a closure: when it was asked and when the account goes ('requested', with the way to keep
 * it), or that it is gone ('erased', with the support contact for a closure the owner did not ask for). Its
 * template SMS form is the security change's (`when`, `change`).
 */
export function closureMessage(
  lang: Lang,
  { stage, when, closesOn, link, support }: { stage: 'requested' | 'erased'; when: string; closesOn: string; link: string | null; support: string },
) {
  if (lang === 'zh') {
    const change = stage === 'requested' ? `申请了注销，将于 ${closesOn} 删除` : '已注销，个人信息已删除';
    const text =
      stage === 'requested'
        ? `您的账号于 ${when}申请了注销，账号及其个人信息将于 ${closesOn} 删除，之后无法恢复。\n如果是您本人，无需处理。如果不是，请立即登录，在“您的数据”中选择“保留账号”，并修改密码${link ? `：\n${link}` : '。'}`
        : `您的账号已于 ${when}按注销申请删除，个人信息已一并删除，本地址已不再属于任何账号。\n如果注销不是您本人申请的，请联系客服。${support}`;
    return { kind: 'securityChange' as const, lang, params: { when, change }, subject: stage === 'requested' ? '账号注销申请提醒' : '您的账号已注销', text };
  }
  const change = stage === 'requested' ? `a request was made to close your account, which will be erased on ${closesOn}` : 'your account was closed and its personal data erased';
  const text =
    stage === 'requested'
      ? `A request to close your account was made on ${when}. The account and its personal data will be erased on ${closesOn}, and cannot be brought back after that.\nIf this was you, there is nothing to do. If not, sign in now, choose "Keep my account" under Your data, and change your password${link ? `:\n${link}` : '.'}`
      : `Your account was closed as requested and its personal data erased on ${when}; this address no longer belongs to any account.\nIf you did not ask for the closure, contact customer support.${support}`;
  return { kind: 'securityChange' as const, lang, params: { when, change }, subject: stage === 'requested' ? 'A request to close your account' : 'Your account was closed', text };
}

/** Tells the owner of `user` (its e-mail, else its phone, as they were before an erasure) about its closure; never throws. */
async function tellClosure(env: WorkerEnv, user: UserRow, { stage, at, closesAt, lang }: { stage: 'requested' | 'erased'; at: number; closesAt: number; lang: Lang }) {
  const to = user.email ? { channel: 'email' as const, to: user.email } : user.phone_e164 ? { channel: 'sms' as const, to: user.phone_e164 } : null;
  if (!to) return;
  const config = configOf(env);
  const message = closureMessage(lang, {
    stage,
    when: noticeTime(at, lang),
    closesOn: noticeDay(closesAt, lang),
    link: config.portalOrigin ? `${config.portalOrigin}/user_center#close-title` : null,
    support: supportContactSentence(lang, supportContact(config, lang)),
  });
  try {
    await deliver(env, { ...to, ...message }, { now: at });
  } catch (error) {
    console.error('closure notice not delivered', error instanceof Error ? error.message : error);
  }
}

/** "Keep my account": ends the cooling-off (DR0004 when the account is not closing). */
export async function keepAccount(db: D1Database, actor: Actor): Promise<void> {
  const [changed] = await runBatch(db, [
    keepStatement(db, actor.userId),
    ownEventStatement(db, { at: actor.at, userId: actor.userId, action: 'user.closure_cancelled', network: actor.network }, { onlyIfChanged: true }),
  ]);
  if (!changed?.meta.changes) throw new GatewayError(ERR.ACCOUNT_NOT_CLOSING);
}

/**
 * Correct the phone or e-mail: the new address proves itself with the `verify` code the ordinary code calls sent to
 * it (codes/service.ts: waits, caps, guess caps; SMS after the human check), used up here before anything else is
 * looked up, so "taken" (DR0008) is said only to the address's owner; then the account names it, and the old
 * address is told (in the background: a refused delivery does not undo the change).
 */
export async function changeContact(
  env: WorkerEnv,
  actor: Actor,
  user: UserRow,
  body: ContactChangeRequest,
  { lang, background }: { lang: Lang; background: (work: Promise<void>) => void },
): Promise<void> {
  const email = body.kind === 'email';
  const recipient = email ? emailRecipient(body.email) : phoneRecipient(body.callingCode, body.mobile);
  const old = email ? user.email : user.phone_e164;
  if (recipient === old) throw new GatewayError(ERR.CONTACT_UNCHANGED);
  // The code first, under its guess caps (per address and per network): until it proves the person owns the new
  // address, a taken address gets the same answers after the same work as a free one (issue 48, class 2).
  await consumeCode(env.DB, { recipient, purpose: 'verify', code: body.code, ip: actor.network ?? '', now: actor.at });
  if (await findUserByIdentity(env.DB, email ? { email: recipient } : { phone: recipient })) throw new GatewayError(ERR.CONTACT_TAKEN);
  // A changed e-mail address is told at the old one with a "This wasn't me" link (undoEmailChange). The text
  // form of a changed phone number is a template SMS, which carries no link.
  const origin = configOf(env).portalOrigin;
  const undo = email && old && origin ? { id: crypto.randomUUID(), ...(await newSecret()) } : null;
  try {
    await runBatch(env.DB, [
      contactChangeStatement(env.DB, actor.userId, email ? 'email' : 'phone_e164', recipient, old),
      ownEventStatement(env.DB, { at: actor.at, userId: actor.userId, action: 'user.contact_changed', network: actor.network, detail: { kind: body.kind } }, { onlyIfChanged: true }),
      ...(undo && old
        ? [contactUndoInsertStatement(env.DB, { id: undo.id, tokenHash: undo.hash, userId: actor.userId, oldEmail: old, newEmail: recipient, at: actor.at, expiresAt: actor.at + CONTACT_UNDO_MS })]
        : []),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) throw new GatewayError(ERR.CONTACT_TAKEN);
    throw error;
  }
  if (old) {
    const to = { channel: email ? ('email' as const) : ('sms' as const), to: old };
    const undoLink = undo ? `${origin}${CONTACT_UNDO_PATH}#${undo.token}` : null;
    background(sendSecurityNotice(env, { userId: actor.userId, at: actor.at, change: email ? 'emailChanged' : 'phoneChanged', lang, to, undo: undoLink }));
  }
}

/** How long the "This wasn't me" link of an e-mail change works: long enough to read the mail, short for a mailbox left behind. */
export const CONTACT_UNDO_MS = 72 * HOUR_MS;
/** The page of the link; its secret goes in the fragment, which no request, log or Referer carries. */
export const CONTACT_UNDO_PATH = '/undo_change';

/**
 * "This wasn't me": the link sent to the old address of an e-mail change, used without signing in. It can only put
 * that old address back on the account it was sent for; with it, every session ends and the password is turned
 * off (whoever changed the address may know it), so the owner signs in again with a code to the address they hold,
 * and sets a new password. It gives the person at the link no session. It works once, for CONTACT_UNDO_MS, and
 * spends every other such link of the account, so that no later link moves the address again. The spend comes
 * last in the batch and decides; everything before it runs only while the link is live (data-rights/db.ts).
 * Answers the address put back. DR0010 for a link used, expired or unknown (one answer for all three), DR0011
 * when the old address belongs to another account now.
 */
export async function undoEmailChange(db: D1Database, token: string, { at, network }: { at: number; network: string | null }): Promise<{ email: string }> {
  const row = await contactUndoByHash(db, await tokenHash(token));
  if (!row || row.used_at !== null || row.expires_at <= at) throw new GatewayError(ERR.CONTACT_UNDO_INVALID);
  let results: D1Result[];
  try {
    results = await runBatch(db, [
      ...undoEmailStatements(db, row, at),
      ownEventStatement(db, { at, userId: row.user_id, action: 'user.contact_change_undone', network, detail: { kind: 'email' } }, { onlyIfChanged: true }),
      revokeAllSessionsStatement(db, 'person', row.user_id, at, { onlyIfChanged: true }),
      consumeStatement(db, SINGLE_USE.contactUndo, { id: row.id }, at, { returning: 'id' }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) throw new GatewayError(ERR.CONTACT_UNDO_TAKEN);
    throw error;
  }
  if (!results.at(-1)?.results.length) throw new GatewayError(ERR.CONTACT_UNDO_INVALID);
  return { email: row.old_email };
}

// ---- The copy itself ----

const json = (value: unknown) => strToU8(JSON.stringify(value, null, 2));

/**
 * The copy's `data.json` (README "A copy of your data"), by category of the data map. Every column is named: a
 * password hash, a TOTP secret, a recovery code, a session token or refresh token, a passkey's public key or any
 * other person's row never enters it.
 */
export async function copyContent(db: D1Database, user: UserRow, at: number) {
  const [memberships, sessions, signIns, agreements, consentChanges, files, factors, activity, apps, linked, devices] = await Promise.all([
    membershipsForCopy(db, user.id),
    sessionsForCopy(db, user.id),
    signInsForCopy(db, user.id),
    agreementsOf(db, user.id),
    consentChangesOf(db, user.id),
    filesForCopy(db, user.id),
    secondFactorsForCopy(db, user.id),
    activityOf(db, user.id),
    connectedApps(db, user.id),
    bindingsOfUser(db, user.id),
    devicesForCopy(db, user.id),
  ]);
  const data = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    generatedAt: new Date(at).toISOString(),
    profile: {
      userId: user.id,
      realName: user.real_name,
      loginName: user.login_name,
      countryId: user.country_id,
      countryName: user.country_name,
      birthday: user.birthday,
      sex: user.sex,
      userType: user.user_type,
      photoFileId: user.photo_file_id,
      createdAt: user.created_at,
      pendingCompanyName: user.pending_company_name,
      pendingPortId: user.pending_port_id,
    },
    contact: { phone: user.phone_e164, email: user.email, chainPartnerId: user.us_id, partner: user.is_partner === 1 },
    companies: memberships.map((m) => ({
      companyId: m.company_id,
      nameEn: m.name_en,
      nameCn: m.name_cn,
      type: m.type,
      role: m.role,
      status: m.status,
      main: m.is_main === 1,
      joinedAt: m.joined_at,
      nickName: m.nick_name,
      personalEmail: m.personal_email,
      contactPhone: m.contact_phone,
      hireDate: m.hire_time,
      modules: JSON.parse(m.modules) as string[],
      // When the company was last checked against the business registry (issue 42); null: never.
      registryCheckedAt: m.registry_checked_at,
    })),
    sessions: sessions.map((s) => ({
      kind: s.kind,
      createdAt: s.created_at,
      lastSeenAt: s.last_seen_at,
      expiresAt: s.expires_at,
      revokedAt: s.revoked_at,
      device: s.device,
      userAgent: s.user_agent,
      country: s.country,
      network: s.network,
      provedWith: s.proved_with,
    })),
    signIns: signIns.map((s) => ({
      at: s.created_at,
      method: s.method,
      partner: s.partner === 1,
      success: s.success === 1,
      secondStep: s.second_step,
      country: s.country,
      network: s.network,
      device: s.device,
      userAgent: s.user_agent,
      newDevice: s.new_device === 1,
      newCountry: s.new_country === 1,
    })),
    // The devices the person signed in from (issue 44), as "Your devices" lists them; never the device cookie or its hash.
    devices: devices.map((d) => ({
      id: d.public_id,
      firstUsedAt: d.created_at,
      lastUsedAt: d.last_used_at,
      userAgent: d.user_agent,
      country: d.country,
      trustedUntil: d.trusted_until,
    })),
    consents: {
      agreements: agreements.map((a) => ({ document: a.document, version: a.version, agreedAt: a.agreed_at })),
      changes: consentChanges.map((c) => ({ purpose: c.purpose, granted: c.granted === 1, at: c.changed_at })),
    },
    files: files.map((f) => ({
      fileId: f.id,
      name: f.origin_name,
      kind: f.kind,
      companyId: f.company_id,
      contentType: f.content_type,
      size: f.size,
      uploadedAt: f.created_at,
      path: `files/${f.id}.${f.extension}`,
    })),
    secondFactors: {
      twoStep: { on: factors.twoStep?.enabled_at != null, since: factors.twoStep?.enabled_at ?? null, recoveryCodesLeft: factors.recoveryCodesLeft },
      passkeys: factors.passkeys.map((p) => ({ name: p.name, kind: p.device_type, backedUp: p.backed_up === 1, addedAt: p.created_at, lastUsedAt: p.last_used_at })),
    },
    // Apps the person signed in to through the portal (OpenID Connect) and what each may receive; never a token.
    connectedApps: apps.map((app) => ({ clientId: app.client_id, name: app.name, scopes: app.scope.split(' ').filter(Boolean), grantedAt: app.granted_at, lastUsedAt: app.last_used_at })),
    // WeChat and WeCom tied to the account (wechat/); the subject is WeChat's unionid or WeCom's corp:userid.
    linkedAccounts: linked.map((b) => ({ provider: b.provider, subject: b.subject, nickname: b.nickname, boundAt: b.created_at })),
    activity,
    closure: user.closes_at !== null ? { since: user.closing_since, closesAt: user.closes_at } : null,
  };
  return { data, files };
}

/** Makes one claimed copy: data.json and the files the person uploaded, zipped into R2 under a new random key. */
async function makeCopy(env: WorkerEnv, copy: { id: string; user_id: string }, at: number): Promise<void> {
  const user = await findUserById(env.DB, copy.user_id);
  if (!user || user.erased_at !== null) return markCopyFailed(env.DB, copy.id);
  const { data, files } = await copyContent(env.DB, user, at);
  const entries: Record<string, Uint8Array> = { 'data.json': json(data) };
  for (const file of files) {
    const object = await env.UPLOADS.get(file.r2_key);
    if (object) entries[`files/${file.id}.${file.extension}`] = new Uint8Array(await object.arrayBuffer());
  }
  const zip = zipSync(entries, { level: 6 });
  const r2Key = `exports/${crypto.randomUUID()}`;
  await env.UPLOADS.put(r2Key, zip, { httpMetadata: { contentType: 'application/zip' } });
  const [ready] = await env.DB.batch([copyReadyStatement(env.DB, { id: copy.id, r2Key, size: zip.byteLength, at, expiresAt: at + DATA_COPY_HOURS * HOUR_MS })]);
  // Claimed again by a later run meanwhile (this one was slow): its file is not needed.
  if (!ready?.meta.changes) await env.UPLOADS.delete(r2Key);
}

/** Makes the waiting copies, at most `limit` in one run; returns how many were made. */
export async function makeWaitingCopies(env: WorkerEnv, at: number, limit = 5): Promise<number> {
  let made = 0;
  for (let i = 0; i < limit; i++) {
    const copy = await claimNextCopy(env.DB, at, at - COPY_STALE_MS);
    if (!copy) break;
    try {
      await makeCopy(env, copy, at);
      made++;
    } catch (error) {
      console.error('data copy failed', { copy: copy.id }, error instanceof Error ? error.stack : error);
      await markCopyFailed(env.DB, copy.id);
    }
  }
  return made;
}

/** Removes the files of copies past their 24 hours. */
export async function removeExpiredCopies(env: WorkerEnv, at: number, limit = 100): Promise<number> {
  const expired = await expiredCopies(env.DB, at, limit);
  if (!expired.length) return 0;
  await env.UPLOADS.delete(expired.map((row) => row.r2_key));
  await markCopiesExpired(env.DB, expired.map((row) => row.id));
  return expired.length;
}

// ---- The erasure ----

/**
 * Tell connected apps and end their grants, BEFORE the erasure's batch: every live grant of the person ends, its
 * refresh tokens and remembered consents go, and each client with a back-channel logout URI is sent its logout
 * token now (retried by the cron; functions/gateway/oidc/logout.ts). The revoked grants stay, naming the person only
 * by the random id the audit trail keeps as a pseudonym.
 */
export async function tellConnectedAppsAndDeleteGrants(env: WorkerEnv, userId: string, at: number): Promise<void> {
  await runBatch(env.DB, endAllGrantsOfStatements(env.DB, userId, at));
  await tellConnectedApps(env, at);
}

/** Erases one account past its cooling-off; returns whether it was erased (false: held or changed meanwhile). */
export async function eraseAccount(env: WorkerEnv, user: UserRow, at: number): Promise<boolean> {
  await tellConnectedAppsAndDeleteGrants(env, user.id, at);
  // R2 keys are read before the rows that name them go.
  const objects = await personalObjectsOf(env.DB, user.id);
  const names = [user.phone_e164, user.email, user.us_id].filter((name): name is string => Boolean(name));
  const [erase, ...rest] = erasureStatements(env.DB, user.id, at, names);
  // The audit row right after the first statement: written only when that one erased the account.
  const audited = auditStatement(env.DB, { at, actor: { kind: 'system', id: null }, action: 'user.erased', target: { kind: 'user', id: user.id } }, { ifChanged: true });
  // Before the memberships end (in `rest`): the person's companies hear user.closed.
  const closed = emitEvent(env.DB, { type: 'user.closed', at, userId: user.id, data: { userId: user.id } }, { ifChanged: true });
  const [erased] = await env.DB.batch([erase!, audited, closed, ...rest]);
  if (!erased?.meta.changes) return false;
  // Told at the address the account had (read before the erasure): it is the owner's last word from the portal.
  await tellClosure(env, user, { stage: 'erased', at, closesAt: user.closes_at ?? at, lang: user.closing_lang ?? 'zh' });
  if (objects.length) {
    // The rows are gone; a failed delete leaves objects nobody can reach (random keys), logged to retry by hand.
    await env.UPLOADS.delete(objects).catch((error: unknown) => console.error('erasure: R2 delete failed', { objects: objects.length }, error));
  }
  return true;
}

/** Erases the accounts past their cooling-off, at most `limit` a run; returns how many. */
export async function eraseDueAccounts(env: WorkerEnv, at: number, limit = 20): Promise<number> {
  let erased = 0;
  for (const user of await dueForErasure(env.DB, at, limit)) {
    if (await eraseAccount(env, user, at)) erased++;
  }
  await tellSkippedErasures(env, at, limit);
  return erased;
}

/** Whether the person withdrew their consent to funnel tracking (tracking/routes.ts then drops their events). */
export const trackingWithdrawn = (db: D1Database, userId: string) => consentWithdrawn(db, userId, 'tracking');

/**
 * An account past its cooling-off whose person is still a company's last active administrator (the other one
 * was removed or left meanwhile) is not erased; once per closure the person is told (a security notice) and the
 * operators are (an audit row `user.erasure_skipped` on the person's trail and the log line `erasure_skipped` to
 * alert on), so a closure never waits unseen.
 */
export async function tellSkippedErasures(env: WorkerEnv, at: number, limit = 20): Promise<number> {
  const skipped = await claimSkippedErasures(env.DB, at, limit);
  for (const user of skipped) {
    const companies = await companiesKeepingErasure(env.DB, user.id);
    const target = { kind: 'user' as const, id: user.id };
    await auditStatement(env.DB, { at, actor: { kind: 'system', id: null }, action: 'user.erasure_skipped', target, detail: { companies: companies.map((c) => c.id) } }).run();
    console.warn(JSON.stringify({ event: 'erasure_skipped', userId: user.id, companies: companies.map((c) => c.id) }));
    const lang: Lang = companies[0]?.lang === 'en' ? 'en' : 'zh';
    await sendSecurityNotice(env, { userId: user.id, at, change: 'erasureSkipped', lang });
  }
  return skipped.length;
}
