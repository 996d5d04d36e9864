import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { isoBase64URL, isoCBOR, isoUint8Array } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator for function tests: real EC P-256 keys (WebCrypto) and the real byte
 * formats (authenticatorData, clientDataJSON, a CBOR attestationObject of format "none", DER signatures), so
 * the server (functions/gateway/passkeys/webauthn.ts) verifies its responses exactly as it verifies a browser's.
 * Tests can make it lie: another origin or rp id in what it signs, no user verification, a counter of their choosing.
 */

const FLAG = { up: 0x01, uv: 0x04, be: 0x08, bs: 0x10, at: 0x40 } as const;
const sha256 = async (data: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>));
const utf8 = (text: string) => isoUint8Array.fromUTF8String(text);
const b64url = (bytes: Uint8Array) => isoBase64URL.fromBuffer(bytes as Uint8Array<ArrayBuffer>);
const uint32 = (value: number) => new Uint8Array([(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255]);

/** WebCrypto signs ECDSA as r‖s; WebAuthn carries it DER-encoded (SEQUENCE of two INTEGERs). */
function derSignature(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    const trimmed = bytes.slice(start);
    const body = trimmed[0]! & 0x80 ? isoUint8Array.concat([new Uint8Array([0]), trimmed]) : trimmed;
    return isoUint8Array.concat([new Uint8Array([0x02, body.length]), body]);
  };
  const sequence = isoUint8Array.concat([integer(raw.slice(0, 32)), integer(raw.slice(32))]);
  return isoUint8Array.concat([new Uint8Array([0x30, sequence.length]), sequence]);
}

interface StoredKey {
  privateKey: CryptoKey;
  rpId: string;
  userHandle: string;
  counter: number;
}

export interface Lies {
  /** The origin written into clientDataJSON (a browser writes the page's). */
  origin?: string;
  /** The rp id whose hash starts authenticatorData. */
  rpId?: string;
  /** False: the authenticator did not verify the person (no PIN or biometrics). */
  userVerified?: boolean;
  /** The signature counter to report (default: one more than last time; 0 forever with `syncedCounter`). */
  counter?: number;
}

export class SoftAuthenticator {
  private readonly keys = new Map<string, StoredKey>();

  /** `syncedCounter`: report counter 0 always, as synced passkeys (iCloud, Google) do. */
  constructor(private readonly options: { syncedCounter?: boolean } = {}) {}

  /** navigator.credentials.create() for these options, as seen from `origin`. */
  async register(options: PublicKeyCredentialCreationOptionsJSON, origin: string, lies: Lies = {}): Promise<RegistrationResponseJSON> {
    const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const jwk = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as JsonWebKey;
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, isoBase64URL.toBuffer(jwk.x!)],
      [-3, isoBase64URL.toBuffer(jwk.y!)],
    ]);
    const credentialId = crypto.getRandomValues(new Uint8Array(16));
    const id = b64url(credentialId);
    const rpId = lies.rpId ?? options.rp.id!;
    const counter = lies.counter ?? 0;
    this.keys.set(id, { privateKey: pair.privateKey, rpId: options.rp.id!, userHandle: options.user.id, counter });
    const attested = isoUint8Array.concat([new Uint8Array(16), new Uint8Array([0, credentialId.length]), credentialId, isoCBOR.encode(coseKey)]);
    const authData = isoUint8Array.concat([await this.header(rpId, FLAG.at, lies, counter), attested]);
    const clientData = utf8(JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin: lies.origin ?? origin, crossOrigin: false }));
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as never);
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: { clientDataJSON: b64url(clientData), attestationObject: b64url(attestationObject), transports: ['internal'] },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get() with one of this authenticator's passkeys (the only one, unless `credentialId`). */
  async authenticate(challenge: string, origin: string, { credentialId, ...lies }: Lies & { credentialId?: string } = {}): Promise<AuthenticationResponseJSON> {
    const id = credentialId ?? [...this.keys.keys()][0]!;
    const key = this.keys.get(id)!;
    const counter = lies.counter ?? (this.options.syncedCounter ? 0 : key.counter + 1);
    key.counter = Math.max(key.counter, counter);
    const authData = await this.header(lies.rpId ?? key.rpId, 0, lies, counter);
    const clientData = utf8(JSON.stringify({ type: 'webauthn.get', challenge, origin: lies.origin ?? origin, crossOrigin: false }));
    const signed = isoUint8Array.concat([authData, await sha256(clientData)]);
    const raw = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key.privateKey, signed));
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(derSignature(raw)),
        userHandle: key.userHandle,
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** rpIdHash ‖ flags ‖ signCount: the start of every authenticatorData. */
  private async header(rpId: string, extraFlags: number, lies: Lies, counter: number) {
    const synced = this.options.syncedCounter ? FLAG.be | FLAG.bs : 0;
    const flags = FLAG.up | (lies.userVerified === false ? 0 : FLAG.uv) | synced | extraFlags;
    return isoUint8Array.concat([await sha256(utf8(rpId)), new Uint8Array([flags]), uint32(counter)]);
  }
}
