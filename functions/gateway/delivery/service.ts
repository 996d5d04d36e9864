import type { Config } from '../../config';
import { breakers, type BreakerState } from './breaker';
import { attemptBuckets, channelFigures, latestFailures, type ProviderBucket } from './db';
import type { DeliveryEnv } from './index';
import { configuredProviders, routes } from './select';

/** The operators' delivery view (read-only): per provider the last hour and day, its breaker and latest failures. */
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** The plot's buckets: one an hour over the last day. */
export const SERIES_BUCKET_MS = HOUR_MS;
const FAILURES_SHOWN = 5;

export interface WindowFigures {
  /** Tries of the provider (sent and failed; skipped ones are not tries). */
  tries: number;
  sends: number;
  failures: number;
  delivered: number;
  undelivered: number;
  /** Sends over tries, 0–1; null without tries. */
  sendRate: number | null;
  /** Delivered over sends whose receipt said delivered or failed, 0–1; null without such receipts. */
  deliveryRate: number | null;
}

export interface ProviderOverview {
  provider: string;
  /** The lists it is on: "sms" (+86), "smsInternational", "email", or a calling code of SMS_ROUTES ("+852"). */
  routes: string[];
  breaker: BreakerState;
  hour: WindowFigures;
  day: WindowFigures;
  latestFailures: { at: number; outcome: string; reason: string | null }[];
  /** One point per hour of the last day, oldest first. */
  series: { at: number; sendRate: number | null; deliveryRate: number | null; tries: number }[];
}

const figures = (rows: Pick<ProviderBucket, 'sends' | 'failures' | 'delivered' | 'undelivered'>[]): WindowFigures => {
  const sum = (key: 'sends' | 'failures' | 'delivered' | 'undelivered') => rows.reduce((total, row) => total + Number(row[key] ?? 0), 0);
  const [sends, failures, delivered, undelivered] = [sum('sends'), sum('failures'), sum('delivered'), sum('undelivered')];
  const tries = sends + failures;
  return {
    tries,
    sends,
    failures,
    delivered,
    undelivered,
    sendRate: tries ? sends / tries : null,
    deliveryRate: delivered + undelivered ? delivered / (delivered + undelivered) : null,
  };
};

/** A channel (route group) over the last hour: messages tried, those that went out, and by which providers. */
export interface ChannelFigures {
  route: string;
  messages: number;
  sent: number;
  providers: string[];
}

export async function deliveryOverview(
  env: DeliveryEnv,
  config: Config,
  now: number,
): Promise<{ at: number; bucketMs: number; providers: ProviderOverview[]; channels: ChannelFigures[] }> {
  // Buckets of an hour aligned to the clock; the hour window is the last 60 minutes, in 5-minute buckets.
  const [hourRows, dayRows, failures, channelRows] = await Promise.all([
    attemptBuckets(env.DB, now - HOUR_MS, 60 * 1000),
    attemptBuckets(env.DB, now - DAY_MS, SERIES_BUCKET_MS),
    latestFailures(env.DB, now - DAY_MS, FAILURES_SHOWN),
    channelFigures(env.DB, now - HOUR_MS),
  ]);
  // Every configured channel has a line, tried or not; a channel tried but no longer configured keeps its own.
  const channelRoutes = [...new Set([...routes(config).filter(([, list]) => !list.includes('outbox')).map(([group]) => group as string), ...channelRows.map((row) => row.route)])];
  const channels = channelRoutes.map((route) => channelRows.find((row) => row.route === route) ?? { route, messages: 0, sent: 0, providers: [] });
  const configured = configuredProviders(config).filter((provider) => provider !== 'outbox');
  const seen = [...new Set([...configured, ...dayRows.map((row) => row.provider)])];
  const firstBucket = Math.floor((now - DAY_MS) / SERIES_BUCKET_MS) * SERIES_BUCKET_MS + SERIES_BUCKET_MS;
  const providers = await Promise.all(
    seen.map(async (provider): Promise<ProviderOverview> => {
      const day = dayRows.filter((row) => row.provider === provider);
      const series = Array.from({ length: DAY_MS / SERIES_BUCKET_MS }, (_, i) => {
        const at = firstBucket + i * SERIES_BUCKET_MS;
        const point = figures(day.filter((row) => Number(row.bucket) === at));
        return { at, sendRate: point.sendRate, deliveryRate: point.deliveryRate, tries: point.tries };
      });
      return {
        provider,
        routes: routes(config)
          .filter(([, list]) => (list as string[]).includes(provider))
          .map(([group]) => group),
        breaker: await breakers.state(env, provider),
        hour: figures(hourRows.filter((row) => row.provider === provider)),
        day: figures(day),
        latestFailures: failures.filter((row) => row.provider === provider).map(({ at, outcome, reason }) => ({ at, outcome, reason })),
        series,
      };
    }),
  );
  return { at: now, bucketMs: SERIES_BUCKET_MS, providers, channels };
}
