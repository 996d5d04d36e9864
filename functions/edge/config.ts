import type { WorkerEnv } from '../env';
import { DEV_HANDOFF_KEY, importHandoffKey, type HandoffKey } from './handoff-blob';
import type { RedirectAllowance } from './redirect-target';

/** The edge's redirect and hand-off settings, read from the Worker's vars and secrets in this one place. */
export interface EdgeConfig {
  /** REGION_REDIRECT: send visitors between the .cn and .com sites by country. */
  regionRedirect: boolean;
  /** SITE_CN / SITE_COM: origins of the site pair. */
  siteCn: string;
  siteCom: string;
  /** PORTAL_URL: default destination of a signed-in visitor (a path is on this site). */
  portalUrl: string;
  zhoushanUrl: string;
  invitationLetterUrl: string;
  /** HANDOFF_AUDIENCE: this site's name in hand-off blobs. */
  handoffAudience: string;
  /** PORTAL_ORIGIN / NAVIGATOR_ORIGIN: this Worker's own sites as visitors reach them (never the Host header). */
  portalOrigin: string | undefined;
  navigatorOrigin: string | undefined;
  /** Origins whose pages may call /api with a state change: the two sites above and the .cn/.com pair. */
  siteOrigins: string[];
  /** Every redirect target passes `safeRedirect` with this; the fallback is PORTAL_URL. */
  redirect: RedirectAllowance;
}

type EdgeVars = Partial<
  Pick<
    WorkerEnv,
    | 'REGION_REDIRECT'
    | 'SITE_CN'
    | 'SITE_COM'
    | 'REDIRECT_ALLOWLIST'
    | 'PORTAL_URL'
    | 'ZHOUSHAN_URL'
    | 'INVITATION_LETTER_URL'
    | 'HANDOFF_AUDIENCE'
    | 'HANDOFF_KEY'
    | 'HANDOFF_KEY_PREVIOUS'
    | 'DEV_OUTBOX'
    | 'PORTAL_ORIGIN'
    | 'NAVIGATOR_ORIGIN'
  >
>;

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** An origin from a configured URL, or undefined for a path or a malformed value. */
function originOf(value: string): string | undefined {
  try {
    return /^https?:\/\//i.test(value) ? new URL(value).origin : undefined;
  } catch {
    return undefined;
  }
}

export function edgeConfig(env: EdgeVars): EdgeConfig {
  const config = {
    regionRedirect: env.REGION_REDIRECT === 'true',
    siteCn: env.SITE_CN ?? '',
    siteCom: env.SITE_COM ?? '',
    portalUrl: env.PORTAL_URL || '/user_center',
    zhoushanUrl: env.ZHOUSHAN_URL ?? '',
    invitationLetterUrl: env.INVITATION_LETTER_URL ?? '',
    handoffAudience: env.HANDOFF_AUDIENCE || 'portal',
    portalOrigin: originOf(env.PORTAL_ORIGIN ?? ''),
    navigatorOrigin: originOf(env.NAVIGATOR_ORIGIN ?? ''),
  };
  const siteOrigins = [config.portalOrigin, originOf(config.siteCn), originOf(config.siteCom), config.navigatorOrigin].filter(
    (origin): origin is string => Boolean(origin),
  );
  // The configured destinations are configuration too, so their origins are allowed without repeating them.
  const destinations = [config.portalOrigin ?? '', config.navigatorOrigin ?? '', config.siteCn, config.siteCom, config.portalUrl, config.zhoushanUrl, config.invitationLetterUrl];
  const origins = [...list(env.REDIRECT_ALLOWLIST), ...destinations]
    .map(originOf)
    .filter((origin): origin is string => Boolean(origin));
  return {
    ...config,
    siteOrigins: [...new Set(siteOrigins)],
    redirect: {
      origins: [...new Set(origins)],
      fallback: config.portalUrl,
      // DEV_OUTBOX "true" marks a local run: only there may a target be plain-http localhost.
      allowHttpLocalhost: env.DEV_OUTBOX === 'true',
    },
  };
}

const keyCache = new Map<string, Promise<HandoffKey>>();
const cachedKey = (base64: string) => {
  let key = keyCache.get(base64);
  if (!key) {
    key = importHandoffKey(base64);
    keyCache.set(base64, key);
    key.catch(() => keyCache.delete(base64));
  }
  return key;
};

/**
 * The hand-off keys: HANDOFF_KEY first (it seals outgoing blobs), then HANDOFF_KEY_PREVIOUS (accepted on
 * arrival during a rotation). Without HANDOFF_KEY only a local run (DEV_OUTBOX "true") gets the dev key;
 * elsewhere the list is empty and every blob is refused. A malformed key throws.
 */
export async function handoffKeys(env: EdgeVars): Promise<HandoffKey[]> {
  const current = env.HANDOFF_KEY || (env.DEV_OUTBOX === 'true' ? DEV_HANDOFF_KEY : undefined);
  if (!current) return [];
  const keys = [await cachedKey(current)];
  if (env.HANDOFF_KEY_PREVIOUS) keys.push(await cachedKey(env.HANDOFF_KEY_PREVIOUS));
  return keys;
}
