#!/usr/bin/env node
// Operator accounts from the command line, through wrangler's D1 (the local database, or --env NAME remote):
//   npm run operator -- add LOGIN --role reviewer|support|admin [--name "Full Name"] [--lang zh|en] [--env production]
//   npm run operator -- enrol LOGIN [--env production]     a new single-use enrolment link (lost phone or password)
//   npm run operator -- remove LOGIN [--env production]    sessions and links end, the row stays for the audit trail
//   npm run operator -- list [--env production]
//   npm run operator -- client add --name NAME --redirect-uri URI [--redirect-uri URI …] [--post-logout-uri URI]
//                       [--public] [--trusted] [--backchannel-logout-uri URI] [--env production]
//       an OpenID Connect client; prints client_id=… and, for a confidential client, client_secret=… (shown once).
//       Without --redirect-uri it is a machine client (client credentials). [--id-token-alg ES256|RS256] names the
//       ID tokens' algorithm; [--no-pkce --reason R] lets a confidential client's code flow go without PKCE.
//   npm run operator -- client list                 the platform's clients, with their ID token algorithm and PKCE rule
//   npm run operator -- client pkce CLIENT_ID --on | --off --reason R    PKCE for one client, audited (issue 43)
// `add` and `enrol` print a link valid for 24 hours, used once: the operator sets their password and TOTP there.
// The SQL lives in scripts/operator-sql.mjs (the function tests run it against a real local D1).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  addClientSql,
  addOperatorSql,
  enrolmentLink,
  LIST_OPERATORS_SQL,
  newEnrolmentSql,
  newEnrolmentToken,
  removeOperatorSql,
  LIST_CLIENTS_SQL,
  setClientPkceSql,
} from './operator-sql.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    role: { type: 'string' },
    name: { type: 'string' },
    lang: { type: 'string', default: 'zh' },
    env: { type: 'string' },
    origin: { type: 'string' },
    'persist-to': { type: 'string' },
    'redirect-uri': { type: 'string', multiple: true },
    'post-logout-uri': { type: 'string', multiple: true },
    'backchannel-logout-uri': { type: 'string' },
    public: { type: 'boolean' },
    trusted: { type: 'boolean' },
    'id-token-alg': { type: 'string' },
    'no-pkce': { type: 'boolean' },
    on: { type: 'boolean' },
    off: { type: 'boolean' },
    reason: { type: 'string' },
  },
});
const [command, login] = positionals;

function usage(message) {
  if (message) console.error(message);
  console.error('usage: npm run operator -- add LOGIN --role reviewer|support|admin [--name NAME] [--lang zh|en] [--env ENV]');
  console.error('       npm run operator -- enrol|remove LOGIN [--env ENV]');
  console.error('       npm run operator -- list [--env ENV]');
  console.error('       npm run operator -- client add --name NAME [--redirect-uri URI …] [--post-logout-uri URI] [--public] [--trusted] [--backchannel-logout-uri URI] [--id-token-alg ES256|RS256] [--no-pkce --reason R] [--env ENV]');
  console.error('       npm run operator -- client list [--env ENV]');
  console.error('       npm run operator -- client pkce CLIENT_ID --on|--off [--reason R] [--env ENV]');
  process.exit(2);
}

/** PORTAL_ORIGIN of the chosen environment in wrangler.toml (the links point there); --origin overrides it. */
function portalOrigin() {
  if (values.origin) return values.origin;
  const toml = readFileSync(new URL('../wrangler.toml', import.meta.url), 'utf8');
  const section = values.env ? `[env.${values.env}.vars]` : '[vars]';
  const start = toml.indexOf(section);
  if (start < 0) usage(`wrangler.toml has no ${section}`);
  const body = toml.slice(start + section.length).split(/^\[/m)[0];
  const match = /^PORTAL_ORIGIN\s*=\s*"([^"]+)"/m.exec(body);
  if (!match) usage(`PORTAL_ORIGIN is not set in ${section}; pass --origin`);
  return match[1];
}

/** Runs SQL with `wrangler d1 execute DB` (local, or remote in --env) and returns the result rows of each statement. */
function execute(sql) {
  const where = values.env ? ['--remote', '--env', values.env] : ['--local', ...(values['persist-to'] ? ['--persist-to', values['persist-to']] : [])];
  const out = execFileSync('npx', ['wrangler', 'd1', 'execute', 'DB', ...where, '--json', '--command', sql], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out).map((statement) => statement.results ?? []);
}

const day = (ms) => (ms ? new Date(ms).toISOString().slice(0, 16).replace('T', ' ') : '');

try {
  if (command === 'client' && login === 'pkce') {
    const clientId = positionals[2];
    if (!clientId || values.on === values.off) usage('client pkce needs CLIENT_ID and one of --on, --off');
    const results = execute(setClientPkceSql({ clientId, required: Boolean(values.on), reason: values.reason ?? null }));
    const row = results.at(-1)?.[0];
    if (!row) usage(`no client ${clientId}`);
    if (values.off && row.pkce_required !== 0) usage('PKCE stays required for a public client or a company client');
    console.log(row.pkce_required ? `PKCE is required of ${clientId}.` : `PKCE is off for ${clientId}: ${row.pkce_off_reason}`);
  } else if (command === 'client' && login === 'list') {
    const [rows] = execute(LIST_CLIENTS_SQL);
    console.table(
      rows.map((row) => ({
        id: row.id,
        name: row.name,
        kind: row.public ? 'public' : 'confidential',
        'ID tokens': row.id_token_alg,
        PKCE: row.pkce_required ? 'required' : `off: ${row.pkce_off_reason}`,
        disabled: day(row.disabled_at),
      })),
    );
  } else if (command === 'client') {
    if (login !== 'add' || !values.name) usage('client add needs --name');
    const { clientId, clientSecret, sql } = addClientSql({
      name: values.name,
      redirectUris: values['redirect-uri'] ?? [],
      postLogoutUris: values['post-logout-uri'] ?? [],
      backchannelLogoutUri: values['backchannel-logout-uri'] ?? null,
      isPublic: values.public ?? false,
      trusted: values.trusted ?? false,
      idTokenAlg: values['id-token-alg'] ?? 'ES256',
      pkceOffReason: values['no-pkce'] ? (values.reason ?? '') : null,
    });
    execute(sql);
    console.log(`client_id=${clientId}`);
    if (clientSecret) console.log(`client_secret=${clientSecret}`);
  } else if (command === 'add') {
    if (!login || !values.role) usage('add needs a LOGIN and --role');
    const { token, hash } = newEnrolmentToken();
    execute(addOperatorSql({ login, name: values.name, role: values.role, lang: values.lang, tokenHash: hash }));
    console.log(`Operator ${login} (${values.role}) added. Send them this link (valid 24 hours, single use):`);
    console.log(enrolmentLink(portalOrigin(), token));
  } else if (command === 'enrol') {
    if (!login) usage('enrol needs a LOGIN');
    const { token, hash } = newEnrolmentToken();
    const results = execute(newEnrolmentSql({ login, tokenHash: hash }));
    if (!results.at(-1)?.[0]?.issued) usage(`no operator ${login}`);
    console.log(`New enrolment link for ${login} (valid 24 hours, single use; earlier links no longer work):`);
    console.log(enrolmentLink(portalOrigin(), token));
  } else if (command === 'remove') {
    if (!login) usage('remove needs a LOGIN');
    const results = execute(removeOperatorSql({ login }));
    if (!results.at(-1)?.length) usage(`no operator ${login}`);
    console.log(`Operator ${login} removed; their sessions have ended.`);
  } else if (command === 'list') {
    const [rows] = execute(LIST_OPERATORS_SQL);
    console.table(
      rows.map((row) => ({
        login: row.login,
        name: row.name,
        role: row.role,
        created: day(row.created_at),
        'second step': row.second_steps || (row.enrolled_at ? '' : '(not enrolled)'),
        removed: day(row.removed_at),
      })),
    );
  } else {
    usage();
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
