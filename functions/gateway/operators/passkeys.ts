import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { encodeBase64Url } from '../../../src/lib/base64';
import { authenticationOptionsFor, decodeClientData, registrationOptionsFor } from '../passkeys/webauthn';
import type { PasskeySite } from '../../config';
import { cappedInsert } from '../identity/db/limits';
import { GatewayError } from '../errors';
import { auditStatement } from '../audit/db';
import { passedSecondStep, signInChallenge, type Client } from './sign-in';
import type { Operator } from './service';
import { CHALLENGE_LIFETIME_MS, transportsOf, verifyAssertion, verifyRegistration } from '../passkeys/service';
import { consume, SINGLE_USE } from '../identity/db/single-use';
import { ERR } from '../../../src/schemas/error-codes';
import { advancePasskeyCounter, insertOperatorPasskeyStatement, operatorPasskey, operatorPasskeysOf } from './db';

/**
 * Operator passkeys with the platform's WebAuthn steps (passkeys/webauthn.ts), as the platform's (passkeys/service.ts: relying party and
 * origins from configuration, user verification required, fresh single-use challenges, a rising counter),
 * with these differences: they live in their own tables, they are a second step (the password comes first,
 * and the options name only that operator's passkeys), and only a signed-in operator adds one.
 */
const RP_NAME = 'Shipping & Port Services Platform · Operators';
const HOUR_MS = 60 * 60 * 1000;
/** Registration or sign-in ceremonies an operator may start an hour. */
export const OPERATOR_PASSKEY_CEREMONY_CAP = 20;
export const OPERATOR_PASSKEYS_MAX = 10;

async function newChallenge(db: D1Database, row: { challenge: string; purpose: 'register' | 'authenticate'; operatorId: string; signIn?: string; at: number }) {
  await cappedInsert(db, {
    table: 'operator_webauthn_challenges',
    row: { challenge: row.challenge, purpose: row.purpose, operator_id: row.operatorId, sign_in: row.signIn ?? null, created_at: row.at, expires_at: row.at + CHALLENGE_LIFETIME_MS },
    caps: [{ where: { operator_id: row.operatorId, purpose: row.purpose }, since: row.at - HOUR_MS, max: OPERATOR_PASSKEY_CEREMONY_CAP, code: ERR.PASSKEY_REGISTRATIONS_CAPPED }],
    returning: 'challenge',
  });
}

/** Claims the challenge a response signed, for this operator and purpose (and sign-in): one UPDATE, or PK0002. */
async function claimSigned(db: D1Database, clientDataJSON: string, where: { purpose: string; operatorId: string; signIn?: string; at: number }) {
  let challenge: string | undefined;
  try {
    challenge = decodeClientData(clientDataJSON).challenge;
  } catch {
    throw new GatewayError(ERR.PASSKEY_NOT_VERIFIED);
  }
  const claimed = await consume(
    db,
    SINGLE_USE.operatorPasskeyCeremony,
    { challenge: challenge ?? '', purpose: where.purpose, operator_id: where.operatorId, sign_in: where.signIn ?? null },
    where.at,
    { returning: 'challenge' },
  );
  if (!claimed || !challenge) throw new GatewayError(ERR.PASSKEY_REQUEST_EXPIRED);
  return challenge;
}

/** Options to add a passkey for the signed-in operator (their passkeys excluded). */
export async function operatorRegistrationOptions(db: D1Database, site: PasskeySite, operator: Operator, at: number) {
  const existing = await operatorPasskeysOf(db, operator.id);
  const options = registrationOptionsFor({
    rpName: RP_NAME,
    rpID: site.rpID,
    userID: new TextEncoder().encode(`operator:${operator.id}`),
    userName: operator.login,
    userDisplayName: operator.name,
    timeout: CHALLENGE_LIFETIME_MS,
    excludeCredentials: existing.map((row) => ({ id: row.id, transports: transportsOf(row) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
  });
  await newChallenge(db, { challenge: options.challenge, purpose: 'register', operatorId: operator.id, at });
  return options;
}

/** Verifies and stores the new passkey, with its audit row in the same batch. */
export async function registerOperatorPasskey(db: D1Database, site: PasskeySite, operator: Operator, response: RegistrationResponseJSON, client: Client) {
  const challenge = await claimSigned(db, response.response.clientDataJSON, { purpose: 'register', operatorId: operator.id, at: client.at });
  const { credential } = await verifyRegistration(site, response, challenge);
  const results = await db
    .batch([
      insertOperatorPasskeyStatement(
        db,
        {
          id: credential.id,
          operatorId: operator.id,
          publicKey: encodeBase64Url(credential.publicKey),
          counter: credential.counter,
          transports: JSON.stringify(credential.transports ?? []),
          at: client.at,
        },
        OPERATOR_PASSKEYS_MAX,
      ),
      auditStatement(db, { at: client.at, actor: { kind: 'operator', id: operator.id }, action: 'operator.passkey_added', network: client.network }, { ifChanged: true }),
    ])
    .catch((error: unknown) => {
      if (error instanceof Error && /UNIQUE|PRIMARY KEY/i.test(error.message)) throw new GatewayError(ERR.PASSKEY_ALREADY_REGISTERED);
      throw error;
    });
  if (results[0]?.meta.changes !== 1) throw new GatewayError(ERR.PASSKEY_LIMIT_REACHED);
  return { id: credential.id };
}

/** Options for the second step with a passkey: the sign-in challenge's operator's passkeys only. PK0004 without one. */
export async function operatorPasskeyStepOptions(db: D1Database, site: PasskeySite, token: string, at: number) {
  const { hash, operator } = await signInChallenge(db, token, at);
  const passkeys = await operatorPasskeysOf(db, operator.id);
  if (!passkeys.length) throw new GatewayError(ERR.PASSKEY_NOT_REGISTERED);
  const options = authenticationOptionsFor({
    rpID: site.rpID,
    userVerification: 'required',
    timeout: CHALLENGE_LIFETIME_MS,
    allowCredentials: passkeys.map((row) => ({ id: row.id, transports: transportsOf(row) })),
  });
  await newChallenge(db, { challenge: options.challenge, purpose: 'authenticate', operatorId: operator.id, signIn: hash, at });
  return options;
}

/** The second step with a passkey: verified against the operator's own passkey, then the session starts. */
export async function operatorPasskeyStep(db: D1Database, site: PasskeySite, token: string, response: AuthenticationResponseJSON, client: Client) {
  const { hash, operator } = await signInChallenge(db, token, client.at);
  const challenge = await claimSigned(db, response.response.clientDataJSON, { purpose: 'authenticate', operatorId: operator.id, signIn: hash, at: client.at });
  const passkey = await operatorPasskey(db, response.id, operator.id);
  if (!passkey) throw new GatewayError(ERR.PASSKEY_NOT_REGISTERED);
  const counter = (await verifyAssertion(site, response, challenge, passkey)).newCounter;
  const used = await advancePasskeyCounter(db, passkey.id, counter, client.at);
  if (!used) throw new GatewayError(ERR.PASSKEY_MAY_BE_COPIED);
  return passedSecondStep(db, hash, operator, client, 'passkey');
}
