// Types only: the ceremonies themselves are ./webauthn.ts (why: there).
import type { AuthenticationResponseJSON, AuthenticatorTransport, RegistrationResponseJSON } from '@simplewebauthn/server';
import { ownEventStatement } from '../audit/db';
import { decodeBase64, encodeBase64Url } from '../../../src/lib/base64';
import {
  authenticationOptionsFor,
  CounterNotRaised,
  decodeClientData,
  registrationOptionsFor,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from './webauthn';
import type { Config, PasskeySite } from '../../config';
import type { PasskeyRegisterRequest } from '../../../src/schemas/passkey-requests';
import type { Passkey } from '../../../src/schemas/passkeys';
import {
  claimChallenge,
  findPasskey,
  insertChallenge,
  insertPasskey,
  removePasskey,
  passkeysOfUser,
  recordPasskeyUse,
  type ChallengePurpose,
  type PasskeyRow,
} from './db';
import type { UserRow } from '../identity/db/people';
import { GatewayError } from '../errors';
import { ERR } from '../../../src/schemas/error-codes';


/** The configured passkey site (config.passkeys); PK0001 without one: every passkey call needs it. */
export function passkeySiteOf(config: Config): PasskeySite {
  if (!config.passkeys) throw new GatewayError(ERR.PASSKEYS_UNAVAILABLE);
  return config.passkeys;
}

/**
 * Passkeys (WebAuthn): @simplewebauthn/browser in the page, the relying party's steps in ./webauthn.ts.
 *
 * - The relying party id and the accepted origins are configuration (config.passkeys: PASSKEY_RP_ID and
 *   PASSKEY_ORIGINS, else PORTAL_ORIGIN), never the request's Host or Origin: a page on another origin cannot
 *   get a response this site accepts.
 * - User verification is required, at registration and at sign-in: a passkey sign-in stands in for a password
 *   and a second step, which holds only when the authenticator checked the person (PIN or biometrics) as
 *   well as holding the key. Passkeys are discoverable (resident keys), so sign-in needs no name first.
 * - Every ceremony signs a fresh random challenge that lives CHALLENGE_LIFETIME_MS and is claimed once, in one
 *   statement, before anything else is checked: a replayed or parallel response finds it used.
 * - A sign-in must raise the authenticator's signature counter (or both stay 0, as synced passkeys report);
 *   the library refuses a lower one and the stored counter is raised in one conditional UPDATE.
 * - Sign-in options are anonymous and capped per client network (PASSKEY_SIGN_IN_CAP); registration options per person
 *   (REGISTER_CAP); a person holds at most PASSKEYS_PER_USER passkeys.
 * - A passkey may also pass the second step of a sign-in that owes one (a first factor of a person with two-step
 *   on). Its options belong to that person: they list only the person's passkeys, and the challenge row carries
 *   the person's id, so only a verify for the same person's second step can claim it, and only with one of the
 *   person's own passkeys. They are capped per client network (with the anonymous ones) and per person
 *   (SECOND_STEP_OPTIONS_CAP).
 */

/** The name browsers show for this site in their passkey dialogs. */
const RP_NAME = 'Shipping & Port Services Platform';
export const CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
/** Registration options per person per hour. */
export const REGISTER_CAP = 20;
/** Second-step passkey options per person per hour: a few sign-ins' worth, far below any abuse. */
export const SECOND_STEP_OPTIONS_CAP = 30;

export function passkeyView(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    synced: row.device_type === 'multiDevice' && row.backed_up === 1,
  };
}

/** The columns every stored credential has (people's passkeys and operators'). */
interface StoredCredential {
  id: string;
  public_key: string;
  counter: number;
  transports: string;
}

export const transportsOf = (row: Pick<StoredCredential, 'transports'>) => JSON.parse(row.transports) as AuthenticatorTransport[];

/** Verifies a new passkey's attestation for the site, user verification required: PK0003 when it fails. */
export async function verifyRegistration(site: PasskeySite, response: RegistrationResponseJSON, challenge: string) {
  const verification = await verifyRegistrationResponse(response, { challenge, origins: site.origins, rpID: site.rpID }).catch(() => null);
  if (!verification) throw new GatewayError(ERR.PASSKEY_NOT_VERIFIED);
  return verification;
}

/**
 * Verifies an assertion against a stored credential, user verification required: PK0005 for a counter that did
 * not rise (the mark of a cloned authenticator), PK0003 for anything else that fails.
 */
export async function verifyAssertion(site: PasskeySite, response: AuthenticationResponseJSON, challenge: string, passkey: StoredCredential) {
  const publicKey = decodeBase64(passkey.public_key);
  if (!publicKey) throw new GatewayError(ERR.PASSKEY_NOT_VERIFIED);
  try {
    return await verifyAuthenticationResponse(response, { challenge, origins: site.origins, rpID: site.rpID }, { publicKey, counter: passkey.counter });
  } catch (error) {
    if (error instanceof CounterNotRaised) throw new GatewayError(ERR.PASSKEY_MAY_BE_COPIED);
    throw new GatewayError(ERR.PASSKEY_NOT_VERIFIED);
  }
}

/** The challenge a response signed (from its clientDataJSON), or PK0003 when it is not readable. */
function signedChallenge(clientDataJSON: string): string {
  try {
    const { challenge } = decodeClientData(clientDataJSON);
    if (typeof challenge === 'string' && challenge) return challenge;
  } catch {
    // falls through to the refusal
  }
  throw new GatewayError(ERR.PASSKEY_NOT_VERIFIED);
}

/** Claims the challenge `clientDataJSON` signed, or answers PK0002 (unknown, expired or already used). */
async function claimSigned(db: D1Database, clientDataJSON: string, purpose: ChallengePurpose, userId: string | null, now: number) {
  const challenge = signedChallenge(clientDataJSON);
  if (!(await claimChallenge(db, challenge, purpose, userId, now))) throw new GatewayError(ERR.PASSKEY_REQUEST_EXPIRED);
  return challenge;
}

/** Options to register a new passkey for `user`; the authenticators it already has are excluded. */
export async function registrationOptions(db: D1Database, site: PasskeySite, user: UserRow, { ip, now }: { ip: string; now: number }) {
  const existing = await passkeysOfUser(db, user.id);
  const userName = user.login_name || user.email || user.phone_e164 || user.id;
  const options = registrationOptionsFor({
    rpName: RP_NAME,
    rpID: site.rpID,
    // The user handle is the account id (no personal data); sign-in checks it against the passkey's owner.
    userID: new TextEncoder().encode(user.id),
    userName,
    userDisplayName: user.real_name || userName,
    timeout: CHALLENGE_LIFETIME_MS,
    excludeCredentials: existing.map((row) => ({ id: row.id, transports: transportsOf(row) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await insertChallenge(db, { challenge: options.challenge, purpose: 'register', userId: user.id, ip, now, expiresAt: now + CHALLENGE_LIFETIME_MS }, [
    { where: { user_id: user.id, purpose: 'register' }, since: now - HOUR_MS, max: REGISTER_CAP, code: ERR.PASSKEY_REGISTRATIONS_CAPPED },
  ]);
  return options;
}

/** Verifies a registration response for `user` and stores the passkey under the given name. */
export async function registerPasskey(
  db: D1Database,
  site: PasskeySite,
  user: UserRow,
  { name, response }: PasskeyRegisterRequest,
  { now, network }: { now: number; network: string },
) {
  const challenge = await claimSigned(db, response.response.clientDataJSON, 'register', user.id, now);
  const { credential, credentialDeviceType, credentialBackedUp } = await verifyRegistration(site, response as RegistrationResponseJSON, challenge);
  const row: Omit<PasskeyRow, 'last_used_at'> = {
    id: credential.id,
    user_id: user.id,
    public_key: encodeBase64Url(credential.publicKey),
    counter: credential.counter,
    transports: JSON.stringify(credential.transports ?? []),
    device_type: credentialDeviceType,
    backed_up: credentialBackedUp ? 1 : 0,
    name,
    created_at: now,
  };
  try {
    await insertPasskey(db, row, [ownEventStatement(db, { at: now, userId: user.id, action: 'user.passkey_added', network, detail: { name } }, { onlyIfChanged: true })]);
  } catch (error) {
    if (error instanceof Error && /UNIQUE|PRIMARY KEY/i.test(error.message)) throw new GatewayError(ERR.PASSKEY_ALREADY_REGISTERED);
    throw error;
  }
  return passkeyView({ ...row, last_used_at: null });
}

/** Anonymous options for a passkey sign-in (any discoverable passkey of this site), capped per network. */
export async function authenticationOptions(db: D1Database, site: PasskeySite, { ip, now, cap }: { ip: string; now: number; cap: number }) {
  const options = authenticationOptionsFor({ rpID: site.rpID, userVerification: 'required', timeout: CHALLENGE_LIFETIME_MS });
  await insertChallenge(db, { challenge: options.challenge, purpose: 'authenticate', userId: null, ip, now, expiresAt: now + CHALLENGE_LIFETIME_MS }, [
    { where: { ip, purpose: 'authenticate' }, since: now - HOUR_MS, max: cap, code: ERR.PASSKEY_SIGN_INS_PER_NETWORK_CAPPED },
  ]);
  return options;
}

/**
 * Options for passing the second step of `userId`'s sign-in with one of their passkeys (allowCredentials names
 * them all); PK0013 when they have none. Capped per client network (PK0010) and per person (PK0015).
 */
export async function secondStepOptions(db: D1Database, site: PasskeySite, userId: string, { ip, now, cap }: { ip: string; now: number; cap: number }) {
  const passkeys = await passkeysOfUser(db, userId);
  if (passkeys.length === 0) throw new GatewayError(ERR.NO_PASSKEY_FOR_SECOND_STEP);
  const options = authenticationOptionsFor({
    rpID: site.rpID,
    allowCredentials: passkeys.map((row) => ({ id: row.id, transports: transportsOf(row) })),
    userVerification: 'required',
    timeout: CHALLENGE_LIFETIME_MS,
  });
  await insertChallenge(db, { challenge: options.challenge, purpose: 'authenticate', userId, ip, now, expiresAt: now + CHALLENGE_LIFETIME_MS }, [
    { where: { ip, purpose: 'authenticate' }, since: now - HOUR_MS, max: cap, code: ERR.PASSKEY_SIGN_INS_PER_NETWORK_CAPPED },
    { where: { user_id: userId, purpose: 'authenticate' }, since: now - HOUR_MS, max: SECOND_STEP_OPTIONS_CAP, code: ERR.PASSKEY_REQUESTS_PER_ACCOUNT_CAPPED },
  ]);
  return options;
}

/**
 * Verifies a sign-in response; answers the id of the account whose passkey signed it. With `forUser` (the
 * second step of that person's sign-in) only a challenge minted for that person is claimed (PK0002 otherwise),
 * and a passkey of anyone else is refused (PK0014); without it, only an anonymous sign-in challenge.
 */
export async function verifyPasskeySignIn(
  db: D1Database,
  site: PasskeySite,
  response: AuthenticationResponseJSON,
  now: number,
  forUser: string | null = null,
): Promise<string> {
  const challenge = await claimSigned(db, response.response.clientDataJSON, 'authenticate', forUser, now);
  const passkey = await findPasskey(db, response.id);
  if (!passkey) throw new GatewayError(ERR.PASSKEY_NOT_REGISTERED);
  if (forUser !== null && passkey.user_id !== forUser) throw new GatewayError(ERR.PASSKEY_OF_ANOTHER_ACCOUNT);
  // A discoverable passkey names its account; it must be the one the credential was registered to.
  const userHandle = response.response.userHandle;
  if (userHandle !== undefined && new TextDecoder().decode(decodeBase64(userHandle) ?? new Uint8Array()) !== passkey.user_id) {
    throw new GatewayError(ERR.PASSKEY_NOT_VERIFIED);
  }
  const { newCounter, credentialBackedUp } = await verifyAssertion(site, response, challenge, passkey);
  if (!(await recordPasskeyUse(db, { id: passkey.id, counter: newCounter, backedUp: credentialBackedUp, now }))) throw new GatewayError(ERR.PASSKEY_MAY_BE_COPIED);
  return passkey.user_id;
}

/** Removes one of the person's own passkeys, with its audit row written only when it was removed; false when not theirs or gone. */
export async function removeOwnPasskey(db: D1Database, passkey: { id: string; userId: string }, at: number, network: string): Promise<boolean> {
  const removedEvent = ownEventStatement(db, { at, userId: passkey.userId, action: 'user.passkey_removed', network }, { onlyIfChanged: true });
  return removePasskey(db, passkey, [removedEvent]);
}
