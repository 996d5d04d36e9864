import { decodePartialCBOR } from '@levischuck/tiny-cbor';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { decodeBase64, encodeBase64Url } from '../../../src/lib/base64';

/**
 * The WebAuthn relying-party steps the portal uses, in the Worker's own WebCrypto: options, and verification of
 * registrations with `none` or `packed` self attestation and of assertions (ES256, EdDSA, RS256).
 *
 * Why not @simplewebauthn/server (which the browser half, @simplewebauthn/browser, still pairs with): every import
 * of it, even of its /helpers, carries its X.509 and ASN.1 stack (@peculiar/x509, asn1js, tsyringe,
 * reflect-metadata: ~500 KB, a quarter of the Worker) for attestation formats the portal never asks for. Options
 * ask for `attestation: 'none'`, so browsers answer `none`; an authenticator that signs its own attestation
 * (`packed` without a certificate) is verified with its own key. A certificate chain (`packed` with x5c, tpm,
 * android-key, apple, fido-u2f) is refused (PK0003): only an attestation we asked for would need it.
 *
 * The checks and their order follow @simplewebauthn/server 14 (verifyRegistrationResponse,
 * verifyAuthenticationResponse); tests/functions/passkeys*.test.ts hold both to the same answers.
 */

/** COSE algorithms offered and accepted: EdDSA, ES256, RS256 (@simplewebauthn/server's defaults without PQC). */
export const SUPPORTED_ALGORITHMS = [-8, -7, -257] as const;

export type CredentialDeviceType = 'singleDevice' | 'multiDevice';

/** A failed check; the message says which (callers map it to an error code). */
export class WebAuthnError extends Error {
  override name = 'WebAuthnError';
}

/** The signature counter did not rise: the mark of a cloned authenticator (PK0005 rather than PK0003). */
export class CounterNotRaised extends WebAuthnError {
  override name = 'CounterNotRaised';
}

const utf8 = new TextEncoder();

/** Url-safe base64 to bytes; throws for anything else. */
function bytesOf(text: unknown, what: string): Uint8Array<ArrayBuffer> {
  const bytes = typeof text === 'string' && /^[A-Za-z0-9_-]*={0,2}$/.test(text) ? decodeBase64(text) : undefined;
  if (!bytes) throw new WebAuthnError(`${what} is not base64url`);
  return bytes;
}

const sha256 = async (data: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(data)));

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The first CBOR item of `bytes` and how many bytes it took. */
function cborFirst(bytes: Uint8Array): [unknown, number] {
  const copy = new Uint8Array(bytes);
  const [value, length] = decodePartialCBOR(copy, 0);
  return [value, length];
}

// ---------------------------------------------------------------------------------------------------------------
// Options

/** 32 random bytes, url-safe base64: the challenge a ceremony signs. */
const newChallenge = () => encodeBase64Url(crypto.getRandomValues(new Uint8Array(32)));

interface CredentialDescriptor {
  id: string;
  transports?: AuthenticatorTransport[];
}
const descriptors = (list: CredentialDescriptor[]) => list.map((cred) => ({ ...cred, id: cred.id.replace(/=+$/, ''), type: 'public-key' as const }));

/** Registration options, as @simplewebauthn/server's generateRegistrationOptions shapes them. */
export function registrationOptionsFor(options: {
  rpName: string;
  rpID: string;
  userID: Uint8Array;
  userName: string;
  userDisplayName: string;
  timeout: number;
  excludeCredentials: CredentialDescriptor[];
  authenticatorSelection: { residentKey: 'required' | 'preferred' | 'discouraged'; userVerification: 'required' | 'preferred' | 'discouraged' };
}): PublicKeyCredentialCreationOptionsJSON {
  return {
    challenge: newChallenge(),
    rp: { name: options.rpName, id: options.rpID },
    user: { id: encodeBase64Url(options.userID), name: options.userName, displayName: options.userDisplayName },
    pubKeyCredParams: SUPPORTED_ALGORITHMS.map((alg) => ({ alg, type: 'public-key' as const })),
    timeout: options.timeout,
    attestation: 'none',
    excludeCredentials: descriptors(options.excludeCredentials),
    authenticatorSelection: { ...options.authenticatorSelection, requireResidentKey: options.authenticatorSelection.residentKey === 'required' },
    extensions: { credProps: true },
    hints: [],
  };
}

/** Authentication options, as @simplewebauthn/server's generateAuthenticationOptions shapes them. */
export function authenticationOptionsFor(options: {
  rpID: string;
  timeout: number;
  userVerification: 'required' | 'preferred' | 'discouraged';
  allowCredentials?: CredentialDescriptor[];
}): PublicKeyCredentialRequestOptionsJSON {
  return {
    rpId: options.rpID,
    challenge: newChallenge(),
    allowCredentials: options.allowCredentials && descriptors(options.allowCredentials),
    timeout: options.timeout,
    userVerification: options.userVerification,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing

interface ClientData {
  type: string;
  challenge: string;
  origin: string;
  crossOrigin?: boolean;
  topOrigin?: string;
  tokenBinding?: { status: string };
}

/** The clientDataJSON a response carries (url-safe base64 of JSON). */
export function decodeClientData(clientDataJSON: unknown): ClientData {
  const parsed: unknown = JSON.parse(new TextDecoder().decode(bytesOf(clientDataJSON, 'clientDataJSON')));
  if (!parsed || typeof parsed !== 'object') throw new WebAuthnError('clientDataJSON is not an object');
  return parsed as ClientData;
}

interface AuthenticatorData {
  rpIdHash: Uint8Array;
  flags: { up: boolean; uv: boolean; be: boolean; bs: boolean; at: boolean; ed: boolean };
  counter: number;
  aaguid?: Uint8Array;
  credentialID?: Uint8Array;
  /** The COSE public key, as the bytes the authenticator wrote. */
  credentialPublicKey?: Uint8Array;
}

// An EdDSA key some authenticators encode as a map of 3 entries that holds 4: read as 4 (as @simplewebauthn does).
const BAD_EDDSA_COSE = new Uint8Array([0xa3, 0x01, 0x63, 0x4f, 0x4b, 0x50, 0x03, 0x27, 0x20, 0x67, 0x45, 0x64, 0x32, 0x35, 0x35, 0x31, 0x39]);

function parseAuthenticatorData(authData: Uint8Array): AuthenticatorData {
  if (authData.length < 37) throw new WebAuthnError('authenticator data is too short');
  const view = new DataView(authData.buffer, authData.byteOffset, authData.byteLength);
  const bits = authData[32]!;
  const flags = { up: !!(bits & 1), uv: !!(bits & 4), be: !!(bits & 8), bs: !!(bits & 16), at: !!(bits & 64), ed: !!(bits & 128) };
  const parsed: AuthenticatorData = { rpIdHash: authData.slice(0, 32), flags, counter: view.getUint32(33) };
  let at = 37;
  if (flags.at) {
    if (authData.length < at + 18) throw new WebAuthnError('attested credential data is too short');
    parsed.aaguid = authData.slice(at, (at += 16));
    const idLength = view.getUint16(at);
    at += 2;
    parsed.credentialID = authData.slice(at, (at += idLength));
    const rest = authData.slice(at);
    if (equalBytes(rest.slice(0, BAD_EDDSA_COSE.length), BAD_EDDSA_COSE)) rest[0] = 0xa4;
    const [, keyLength] = cborFirst(rest);
    parsed.credentialPublicKey = rest.slice(0, keyLength);
    at += keyLength;
  }
  if (flags.ed) at += cborFirst(authData.slice(at))[1];
  if (at !== authData.length) throw new WebAuthnError('leftover bytes in authenticator data');
  return parsed;
}

// ---------------------------------------------------------------------------------------------------------------
// Signatures

type CoseKey = Map<number, unknown>;

function coseKeyOf(bytes: Uint8Array): CoseKey {
  const [key] = cborFirst(bytes);
  if (!(key instanceof Map)) throw new WebAuthnError('the public key is not a COSE key');
  return key as CoseKey;
}

const b64 = (value: unknown, what: string) => {
  if (!(value instanceof Uint8Array)) throw new WebAuthnError(`the public key has no ${what}`);
  return encodeBase64Url(value);
};

/** An ECDSA signature as DER (SEQUENCE of two INTEGERs) to the fixed-width r‖s WebCrypto verifies. */
function derToRaw(der: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  const fail = () => new WebAuthnError('the signature is not DER');
  let at = 0;
  const length = () => {
    let n = der[at++] ?? -1;
    if (n === 0x81) n = der[at++] ?? -1;
    else if (n > 0x80) throw fail();
    return n;
  };
  if (der[at++] !== 0x30) throw fail();
  if (length() !== der.length - at) throw fail();
  const out = new Uint8Array(size * 2);
  for (const half of [0, 1]) {
    if (der[at++] !== 0x02) throw fail();
    const n = length();
    if (n < 1 || at + n > der.length) throw fail();
    let int = der.slice(at, (at += n));
    while (int.length > 1 && int[0] === 0) int = int.slice(1);
    if (int.length > size) throw fail();
    out.set(int, half * size + size - int.length);
  }
  if (at !== der.length) throw fail();
  return out;
}

const EC_CURVES: Record<number, { crv: string; size: number; hash: string }> = {
  1: { crv: 'P-256', size: 32, hash: 'SHA-256' },
  2: { crv: 'P-384', size: 48, hash: 'SHA-384' },
  3: { crv: 'P-521', size: 66, hash: 'SHA-512' },
};

/** Verifies `signature` over `data` with a COSE public key (EC2, OKP Ed25519 or RSA PKCS#1 v1.5). */
async function verifySignature(publicKey: Uint8Array, data: Uint8Array<ArrayBuffer>, signature: Uint8Array<ArrayBuffer>, alg?: number) {
  const key = coseKeyOf(publicKey);
  const kty = key.get(1);
  const keyAlg = key.get(3);
  if (alg !== undefined && keyAlg !== undefined && keyAlg !== alg) throw new WebAuthnError('the signature algorithm is not the key’s');
  if (kty === 2) {
    const curve = EC_CURVES[key.get(-1) as number];
    if (!curve) throw new WebAuthnError('unsupported curve');
    const jwk = { kty: 'EC', crv: curve.crv, x: b64(key.get(-2), 'x'), y: b64(key.get(-3), 'y') };
    const cryptoKey = await crypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: curve.crv }, false, ['verify']);
    // ES256 etc. name their hash; a key without alg is read with its curve's.
    const hash = keyAlg === -7 ? 'SHA-256' : keyAlg === -35 ? 'SHA-384' : keyAlg === -36 ? 'SHA-512' : curve.hash;
    return crypto.subtle.verify({ name: 'ECDSA', hash }, cryptoKey, derToRaw(signature, curve.size), data);
  }
  if (kty === 1) {
    if (key.get(-1) !== 6) throw new WebAuthnError('unsupported OKP curve');
    const cryptoKey = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: b64(key.get(-2), 'x') }, { name: 'Ed25519' }, false, ['verify']);
    return crypto.subtle.verify({ name: 'Ed25519' }, cryptoKey, signature, data);
  }
  if (kty === 3) {
    if (keyAlg !== -257) throw new WebAuthnError('unsupported RSA algorithm');
    const jwk = { kty: 'RSA', n: b64(key.get(-1), 'n'), e: b64(key.get(-2), 'e') };
    const cryptoKey = await crypto.subtle.importKey('jwk', jwk, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify']);
    return crypto.subtle.verify({ name: 'RSASSA-PKCS1-v1_5' }, cryptoKey, signature, data);
  }
  throw new WebAuthnError('unsupported key type');
}

// ---------------------------------------------------------------------------------------------------------------
// Ceremonies

interface Expected {
  challenge: string;
  origins: readonly string[];
  rpID: string;
}

/** The checks both ceremonies make on clientDataJSON. */
function checkClientData(clientData: ClientData, type: 'webauthn.create' | 'webauthn.get', expected: Expected) {
  if (clientData.type !== type) throw new WebAuthnError(`unexpected type ${clientData.type}`);
  if (clientData.challenge !== expected.challenge) throw new WebAuthnError('unexpected challenge');
  // A sign-in from inside another site's frame names that site as top origin: none is expected (as the library,
  // which checks this for assertions only).
  if (type === 'webauthn.get' && clientData.topOrigin) throw new WebAuthnError('unexpected top origin');
  if (!expected.origins.includes(clientData.origin)) throw new WebAuthnError(`unexpected origin ${clientData.origin}`);
  const binding = clientData.tokenBinding;
  if (binding !== undefined && (typeof binding !== 'object' || !['present', 'supported', 'not-supported', 'notSupported'].includes(binding?.status))) {
    throw new WebAuthnError('unexpected token binding');
  }
}

async function checkRpId(rpIdHash: Uint8Array, rpID: string) {
  if (!equalBytes(rpIdHash, await sha256(utf8.encode(rpID)))) throw new WebAuthnError('unexpected RP ID hash');
}

function backupFlags(flags: AuthenticatorData['flags']): { credentialDeviceType: CredentialDeviceType; credentialBackedUp: boolean } {
  if (!flags.be && flags.bs) throw new WebAuthnError('a single-device credential cannot be backed up');
  return { credentialDeviceType: flags.be ? 'multiDevice' : 'singleDevice', credentialBackedUp: flags.bs };
}

function checkCredentialShape(response: { id?: unknown; rawId?: unknown; type?: unknown }) {
  if (!response.id) throw new WebAuthnError('missing credential id');
  if (response.id !== response.rawId) throw new WebAuthnError('credential id is not base64url');
  if (response.type !== 'public-key') throw new WebAuthnError('unexpected credential type');
}

/** A new passkey's attestation, user presence and verification required. Throws WebAuthnError when it fails. */
export async function verifyRegistrationResponse(response: RegistrationResponseJSON, expected: Expected) {
  checkCredentialShape(response);
  const clientDataBytes = bytesOf(response.response?.clientDataJSON, 'clientDataJSON');
  checkClientData(decodeClientData(response.response.clientDataJSON), 'webauthn.create', expected);
  const [object] = cborFirst(bytesOf(response.response.attestationObject, 'attestationObject'));
  if (!(object instanceof Map)) throw new WebAuthnError('attestationObject is not a map');
  const fmt = object.get('fmt');
  const attStmt = object.get('attStmt');
  const authData = object.get('authData');
  if (!(authData instanceof Uint8Array) || !(attStmt instanceof Map)) throw new WebAuthnError('attestationObject is incomplete');
  const parsed = parseAuthenticatorData(authData);
  await checkRpId(parsed.rpIdHash, expected.rpID);
  if (!parsed.flags.up) throw new WebAuthnError('user not present');
  if (!parsed.flags.uv) throw new WebAuthnError('user not verified');
  const { credentialID, credentialPublicKey, aaguid } = parsed;
  if (!credentialID || !credentialPublicKey || !aaguid) throw new WebAuthnError('no attested credential');
  const alg = coseKeyOf(credentialPublicKey).get(3);
  if (typeof alg !== 'number' || !(SUPPORTED_ALGORITHMS as readonly number[]).includes(alg)) throw new WebAuthnError(`unsupported algorithm ${alg}`);

  if (fmt === 'none') {
    if (attStmt.size > 0) throw new WebAuthnError('none attestation with a statement');
  } else if (fmt === 'packed' && !attStmt.has('x5c')) {
    // Self attestation: the new key signs authData ‖ SHA-256(clientDataJSON) with the algorithm it names.
    const sig = attStmt.get('sig');
    if (attStmt.get('alg') !== alg || !(sig instanceof Uint8Array)) throw new WebAuthnError('packed self attestation does not match the key');
    const signed = concat(authData, await sha256(clientDataBytes));
    if (!(await verifySignature(credentialPublicKey, signed, new Uint8Array(sig), alg))) throw new WebAuthnError('packed self attestation signature');
  } else {
    throw new WebAuthnError(`unsupported attestation ${String(fmt)}`);
  }

  return {
    credential: {
      id: encodeBase64Url(credentialID),
      publicKey: credentialPublicKey,
      counter: parsed.counter,
      transports: response.response.transports,
    },
    ...backupFlags(parsed.flags),
  };
}

/**
 * An assertion against a stored credential, user presence and verification required. Throws WebAuthnError when
 * it fails; a counter that did not rise (unless both are 0, as synced passkeys report) is CounterNotRaised.
 */
export async function verifyAuthenticationResponse(
  response: AuthenticationResponseJSON,
  expected: Expected,
  credential: { publicKey: Uint8Array; counter: number },
) {
  checkCredentialShape(response);
  const clientDataBytes = bytesOf(response.response?.clientDataJSON, 'clientDataJSON');
  checkClientData(decodeClientData(response.response.clientDataJSON), 'webauthn.get', expected);
  const authData = bytesOf(response.response.authenticatorData, 'authenticatorData');
  const signature = bytesOf(response.response.signature, 'signature');
  if (response.response.userHandle && typeof response.response.userHandle !== 'string') throw new WebAuthnError('userHandle is not a string');
  const parsed = parseAuthenticatorData(authData);
  await checkRpId(parsed.rpIdHash, expected.rpID);
  if (!parsed.flags.up) throw new WebAuthnError('user not present');
  if (!parsed.flags.uv) throw new WebAuthnError('user not verified');
  const flags = backupFlags(parsed.flags);
  const signed = concat(authData, await sha256(clientDataBytes));
  if (!(await verifySignature(credential.publicKey, signed, signature))) throw new WebAuthnError('signature');
  // After the signature, as WebAuthn §7.2 orders them: an unsigned request must not learn the stored counter.
  if ((parsed.counter > 0 || credential.counter > 0) && parsed.counter <= credential.counter) {
    throw new CounterNotRaised('the signature counter did not rise');
  }
  return { newCounter: parsed.counter, ...flags };
}
