import type { ChannelFigures, ProviderOverview } from '../schemas/ops-delivery';

/**
 * The operators' delivery view in plain states (issue 47 item 7): what a provider is doing, coloured by what came
 * of its sends rather than by its breaker's name (a closed breaker over a provider that failed every send is not
 * good news), and one line per channel saying whether people got their texts or e-mail.
 */
export type Outcome = 'good' | 'warning' | 'bad' | 'idle';

export type ProviderState =
  /** Closed breaker, sends going out (some may have failed: `failedInRow`). */
  | { kind: 'sending'; outcome: Outcome; failedInRow: number; allFailed: boolean }
  /** Open breaker: skipped after `failures` failures in a row, until `retryAt`. */
  | { kind: 'paused'; outcome: 'bad'; failures: number; retryAt: number | null }
  /** Half-open breaker: one trial send decides. */
  | { kind: 'trial'; outcome: 'warning' };

export function providerState(p: Pick<ProviderOverview, 'breaker' | 'hour'>): ProviderState {
  if (p.breaker.state === 'open') return { kind: 'paused', outcome: 'bad', failures: p.breaker.failures, retryAt: p.breaker.retryAt };
  if (p.breaker.state === 'half-open') return { kind: 'trial', outcome: 'warning' };
  const { tries, sends } = p.hour;
  const allFailed = tries > 0 && sends === 0;
  const outcome: Outcome = allFailed ? 'bad' : p.breaker.failures > 0 || (tries > 0 && sends < tries) ? 'warning' : tries === 0 ? 'idle' : 'good';
  return { kind: 'sending', outcome, failedInRow: p.breaker.failures, allFailed };
}

export type ChannelLine =
  /** `sent` messages went out in the last hour, by `providers`; `warning` when some others did not. */
  | { route: string; kind: 'sent'; sent: number; messages: number; providers: string[]; outcome: 'good' | 'warning' }
  /** Nothing went out in the last hour although messages were tried, or every provider of the channel is paused. */
  | { route: string; kind: 'none'; outcome: 'bad' }
  /** Nothing to send in the last hour, and a provider is ready. */
  | { route: string; kind: 'quiet'; outcome: 'idle' };

/** The channels in a fixed order (+86 texts, other texts, e-mail), then any calling code with a list of its own. */
const ORDER = ['sms', 'smsInternational', 'email'];

/** One line per channel: what its messages of the last hour came to, and whether any provider of it can send. */
export function channelLines(channels: readonly ChannelFigures[], providers: readonly Pick<ProviderOverview, 'routes' | 'breaker'>[]): ChannelLine[] {
  return [...channels]
    .sort((a, b) => rank(a.route) - rank(b.route) || a.route.localeCompare(b.route))
    .map((c): ChannelLine => {
      if (c.sent > 0) return { route: c.route, kind: 'sent', sent: c.sent, messages: c.messages, providers: c.providers, outcome: c.sent < c.messages ? 'warning' : 'good' };
      const on = providers.filter((p) => p.routes.includes(c.route));
      const allPaused = on.length > 0 && on.every((p) => p.breaker.state === 'open');
      return c.messages > 0 || allPaused ? { route: c.route, kind: 'none', outcome: 'bad' } : { route: c.route, kind: 'quiet', outcome: 'idle' };
    });
}

function rank(route: string): number {
  const i = ORDER.indexOf(route);
  return i === -1 ? ORDER.length : i;
}

/** A text route (people are offered the code by e-mail when none of its providers can send). */
export const isTextRoute = (route: string) => route !== 'email';
