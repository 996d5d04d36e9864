#!/usr/bin/env node
// Prints a hand-off blob (format: functions/gateway/handoff/blob.ts, README "Hand-off between sites").
//   npm run handoff -- --sub USERID --aud portal --purpose session [--ttl 60] [--key BASE64]
//   npm run handoff -- --sub USERID --aud portal --purpose credentials --login-name NAME --password-hash HEX
// The key defaults to the public dev key, which only a local run (DEV_OUTBOX "true") accepts.
// Node 24 (the `node` devDependency) loads the TypeScript module directly by stripping its types.
import { parseArgs } from 'node:util';
import { DEV_HANDOFF_KEY, HANDOFF_MAX_TTL, createHandoffBlob, handoffClaims, importHandoffKey } from '../functions/gateway/handoff/blob.ts';

const usage = 'usage: npm run handoff -- --sub USERID --aud AUDIENCE --purpose session|credentials [--ttl 60] [--key BASE64] [--login-name NAME --password-hash SHA256HEX]';

let values;
try {
  ({ values } = parseArgs({
    options: {
      sub: { type: 'string' },
      aud: { type: 'string' },
      purpose: { type: 'string', default: 'session' },
      ttl: { type: 'string', default: String(HANDOFF_MAX_TTL) },
      key: { type: 'string' },
      'login-name': { type: 'string' },
      'password-hash': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  console.error(`${error.message}\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const ttl = Number(values.ttl);
if (!values.sub || !values.aud || !['session', 'credentials'].includes(values.purpose) || !Number.isInteger(ttl) || ttl < 1 || ttl > HANDOFF_MAX_TTL) {
  console.error(`${usage}\n(--ttl is whole seconds, 1 to ${HANDOFF_MAX_TTL})`);
  process.exit(2);
}

try {
  const key = await importHandoffKey(values.key ?? process.env.HANDOFF_KEY ?? DEV_HANDOFF_KEY);
  const claims = handoffClaims({
    sub: values.sub,
    aud: values.aud,
    purpose: values.purpose,
    ttl,
    loginName: values['login-name'],
    passwordHash: values['password-hash'],
  });
  console.log(await createHandoffBlob(key, claims));
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
