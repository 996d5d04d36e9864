import * as z from 'zod/mini';

/**
 * Wire contract of the operators' delivery view (every operator role, read-only):
 *
 * - GET ops/v1/delivery → DeliveryOverview: per provider its lists, its breaker, the last hour and day (tries,
 *   sends, failures, receipts), its latest failure reasons and one point an hour over the last day; per channel
 *   (route group) the messages of the last hour, those sent, and by which providers.
 *
 * Rates are 0–1, or null when there was nothing to divide: `sendRate` is sends over tries (a try that failed,
 * timed out or was throttled is a failure; a provider skipped by its open breaker is no try), `deliveryRate`
 * is delivered over the receipts that said delivered or failed.
 */
const rate = z.nullable(z.number());
export const windowFigures = z.object({
  tries: z.number(),
  sends: z.number(),
  failures: z.number(),
  delivered: z.number(),
  undelivered: z.number(),
  sendRate: rate,
  deliveryRate: rate,
});
export const breakerStateName = z.enum(['closed', 'open', 'half-open']);
export const providerOverview = z.object({
  provider: z.string(),
  /** "sms" (+86), "smsInternational", "email", or a calling code with a list of its own ("+852"). */
  routes: z.array(z.string()),
  breaker: z.object({ state: breakerStateName, failures: z.number(), retryAt: z.nullable(z.number()), changedAt: z.nullable(z.number()) }),
  hour: windowFigures,
  day: windowFigures,
  latestFailures: z.array(z.object({ at: z.number(), outcome: z.string(), reason: z.nullable(z.string()) })),
  series: z.array(z.object({ at: z.number(), sendRate: rate, deliveryRate: rate, tries: z.number() })),
});
/** A channel over the last hour: messages tried, those some provider sent, and which providers sent them. */
export const channelFigures = z.object({ route: z.string(), messages: z.number(), sent: z.number(), providers: z.array(z.string()) });
export const deliveryOverview = z.object({ at: z.number(), bucketMs: z.number(), providers: z.array(providerOverview), channels: z.array(channelFigures) });
export type ChannelFigures = z.infer<typeof channelFigures>;
export type DeliveryOverview = z.infer<typeof deliveryOverview>;
export type ProviderOverview = z.infer<typeof providerOverview>;
export type WindowFigures = z.infer<typeof windowFigures>;
