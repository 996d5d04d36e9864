import * as oidc from 'openid-client';
import { beforeAll } from 'vitest';
import app from '../../functions/worker';
import { addClientSql } from '../../scripts/operator-sql.mjs';
import { splitStatements } from './oidc-sql';
import type { startWorkerEnv } from './worker-env';

type Worker = Awaited<ReturnType<typeof startWorkerEnv>>;

/** The portal as its OpenID issuer (the worker env's PORTAL_ORIGIN), and the trusted app's own origin. */
export const ISSUER = 'http://localhost';
export const RP = 'http://127.0.0.1:9556';

/**
 * A trusted app ("Voyage planner", redirect `${RP}/callback`, post-logout `${RP}/signed-out`) registered before
 * the file's tests on `env` (a worker env with PORTAL_ORIGIN = ISSUER), with its OpenID client (openid-client)
 * and the person's browser both talking to that Worker. `app`'s fields are filled in before the first test.
 */
export function useTrustedApp(env: Worker) {
  /** A request of the person's browser (with their cookies), answered without following redirects. */
  async function browse(url: string, cookie?: string): Promise<Response> {
    const answer = await app.request(url, { headers: cookie ? { cookie } : {}, redirect: 'manual' }, env.env, env.ctx);
    await env.settle();
    return answer;
  }

  const toWorker: oidc.CustomFetch = async (url, options) => {
    const answer = await app.request(url, { method: options.method, headers: options.headers as HeadersInit, body: options.body as BodyInit, redirect: 'manual' }, env.env, env.ctx);
    await env.settle();
    return answer;
  };

  const trusted = {} as { clientId: string; clientSecret: string | null; config: oidc.Configuration };
  beforeAll(async () => {
    const { clientId, clientSecret, sql } = addClientSql({ name: 'Voyage planner', redirectUris: [`${RP}/callback`], postLogoutUris: [`${RP}/signed-out`], trusted: true });
    await env.env.DB.batch(splitStatements(sql).map((statement) => env.env.DB.prepare(statement)));
    const config = await oidc.discovery(new URL(ISSUER), clientId, undefined, oidc.ClientSecretBasic(clientSecret!), { execute: [oidc.allowInsecureRequests], [oidc.customFetch]: toWorker });
    config[oidc.customFetch] = toWorker;
    Object.assign(trusted, { clientId, clientSecret, config });
  });

  /** Signs `cookie`'s person in to the app; its ID token. */
  async function idTokenFor(cookie: string): Promise<string> {
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(trusted.config, { redirect_uri: `${RP}/callback`, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 's' });
    const back = (await browse(url.href, cookie)).headers.get('location')!;
    const tokens = await oidc.authorizationCodeGrant(trusted.config, new URL(back), { pkceCodeVerifier: verifier, expectedState: 's' });
    return tokens.id_token!;
  }

  return { app: trusted, browse, idTokenFor };
}
