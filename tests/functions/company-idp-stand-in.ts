import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';

/**
 * A company's OpenID provider, standing in for Entra ID or Okta in the tests (issue 43): node http on a local
 * port, ID tokens signed RS256 with `jose`. It checks what a real provider checks before it issues a token: the
 * client's id and secret (HTTP Basic or the form), the code (single use, bound to the client and redirect URI),
 * and the PKCE verifier against the challenge (S256). /authorize signs in the person named by `login_hint` at once
 * (no page) and sends the browser back with `code`, `state` and `iss` (RFC 9207).
 *
 * What a test may change: `people` (the claims of each e-mail), `tamper` (rewrites the claims of the next ID
 * tokens: another audience, email_verified false …), `forgeSignature` (signs with a key not in its JWKS, under its
 * own `kid` or `forgedKid`), `rotateKey()` (a new signing key, the only one its JWKS publishes from then on).
 * `requests` counts what the portal read of it.
 */
export interface Person {
  sub: string;
  email: string;
  email_verified?: boolean;
  name?: string;
  amr?: string[];
}

export interface CompanyIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  people: Map<string, Person>;
  tamper: ((claims: JWTPayload) => JWTPayload) | null;
  forgeSignature: boolean;
  /** The `kid` a forged token names (default: the provider's own). */
  forgedKid: string | null;
  /** A new key pair under a new `kid`; the JWKS publishes only the new key. */
  rotateKey(): Promise<void>;
  /** How often the discovery document and the JWKS were read. */
  requests: { discovery: number; jwks: number };
  /** Tokens issued (one per code redeemed). */
  issued: number;
  /** GET /authorize as the browser would, without following the redirect: what comes back to the callback. */
  authorize(authorizeUrl: string): Promise<{ code: string; state: string; iss: string; redirectUri: string }>;
  close(): Promise<void>;
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

export async function startCompanyIdp({ clientId = 'portal-client', clientSecret = 'idp-stand-in-secret' } = {}): Promise<CompanyIdp> {
  const signing = await generateKeyPair('RS256', { extractable: true });
  let privateKey = signing.privateKey;
  let kid = 'stand-in-1';
  const forged = await generateKeyPair('RS256', { extractable: true });
  let jwk = { ...(await exportJWK(signing.publicKey)), kid, alg: 'RS256', use: 'sig' };
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string; nonce: string; person: Person; used: boolean }>();
  const people = new Map<string, Person>();
  let issuer = '';

  const idp: CompanyIdp = {
    issuer: '',
    clientId,
    clientSecret,
    people,
    tamper: null,
    forgeSignature: false,
    forgedKid: null,
    requests: { discovery: 0, jwks: 0 },
    async rotateKey() {
      const next = await generateKeyPair('RS256', { extractable: true });
      kid = `stand-in-${Number(kid.split('-').pop()) + 1}`;
      privateKey = next.privateKey;
      jwk = { ...(await exportJWK(next.publicKey)), kid, alg: 'RS256', use: 'sig' };
    },
    issued: 0,
    async authorize(authorizeUrl: string) {
      const answer = await fetch(authorizeUrl, { redirect: 'manual' });
      const location = answer.headers.get('location');
      if (answer.status !== 302 || !location) throw new Error(`the stand-in IdP refused: ${answer.status} ${await answer.text()}`);
      const back = new URL(location);
      return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')!, iss: back.searchParams.get('iss')!, redirectUri: `${back.origin}${back.pathname}` };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const personOf = (email: string): Person => people.get(email) ?? { sub: `sub-${createHash('sha256').update(email).digest('hex').slice(0, 16)}`, email, email_verified: true, name: email.split('@')[0] };

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', issuer);
    const json = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    if (url.pathname === '/.well-known/openid-configuration') {
      idp.requests.discovery++;
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
        scopes_supported: ['openid', 'email', 'profile'],
      });
    }
    if (url.pathname === '/jwks') {
      idp.requests.jwks++;
      return json(200, { keys: [jwk] });
    }
    if (url.pathname === '/authorize') {
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri') ?? '';
      if (q.get('client_id') !== clientId || q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge') || !q.get('nonce') || !redirectUri) {
        return json(400, { error: 'invalid_request' });
      }
      const code = base64url(randomBytes(24));
      codes.set(code, { clientId, redirectUri, challenge: q.get('code_challenge')!, nonce: q.get('nonce')!, person: personOf((q.get('login_hint') ?? '').toLowerCase()), used: false });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      back.searchParams.set('iss', issuer);
      return response.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', async () => {
        const form = new URLSearchParams(body);
        const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1];
        const [id, secret] = basic ? Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent) : [form.get('client_id'), form.get('client_secret')];
        if (id !== clientId || secret !== clientSecret) return json(401, { error: 'invalid_client' });
        const grant = codes.get(form.get('code') ?? '');
        if (form.get('grant_type') !== 'authorization_code' || !grant || grant.used || grant.redirectUri !== form.get('redirect_uri')) return json(400, { error: 'invalid_grant' });
        grant.used = true;
        const challenge = base64url(createHash('sha256').update(form.get('code_verifier') ?? '').digest());
        if (challenge !== grant.challenge) return json(400, { error: 'invalid_grant', error_description: 'PKCE' });
        const now = Math.floor(Date.now() / 1000);
        const { sub, ...rest } = grant.person;
        let claims: JWTPayload = { ...rest, email_verified: grant.person.email_verified ?? true, iss: issuer, aud: clientId, sub, nonce: grant.nonce, iat: now, exp: now + 300 };
        if (idp.tamper) claims = idp.tamper(claims);
        const idToken = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: idp.forgeSignature ? (idp.forgedKid ?? kid) : kid, typ: 'JWT' }).sign(idp.forgeSignature ? forged.privateKey : privateKey);
        idp.issued++;
        return json(200, { access_token: base64url(randomBytes(16)), token_type: 'Bearer', expires_in: 300, id_token: idToken });
      });
      return;
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  idp.issuer = issuer;
  return idp;
}
