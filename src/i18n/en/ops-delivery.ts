/** The operators' delivery view (/ops/delivery). */
export const opsDelivery = {
  readOnly: 'Read-only. The order of providers and the breaker settings are in the Worker configuration (README "Delivery failover").',
  refresh: 'Refresh',
  loading: 'Loading…',
  /** {time}: when the figures were taken. */
  updated: 'Figures as of {time}.',
  none: 'No provider is configured, and nothing was sent in the last 24 hours.',
  providers: { aliyun: 'Aliyun SMS', tencent: 'Tencent Cloud SMS', twilio: 'Twilio SMS', ses: 'Amazon SES e-mail', webhook: 'Webhook', outbox: 'Development outbox' },
  routes: { sms: 'texts to +86 numbers', smsInternational: 'texts to other numbers', email: 'e-mail' },
  /** {code}: a calling code with a list of its own (SMS_ROUTES). */
  callingCodeRoute: 'texts to {code} numbers',
  /** {routes}: the lists the provider is on. */
  usedFor: 'Used for {routes}.',
  notRouted: 'On no list now; it sent in the last 24 hours.',
  breakerStates: { closed: 'Closed: sending', open: 'Open: skipped until {time}', 'half-open': 'Half-open: one trial send' },
  /** {count}: failed sends in a row. */
  failuresInRow: '{count} failed in a row',
  tableLabel: 'Sends, failures and delivery rates per provider',
  columns: { provider: 'Provider', period: 'Period', tries: 'Tries', sent: 'Sent', failed: 'Failed', sendRate: 'Send rate', deliveryRate: 'Delivery rate', breaker: 'Breaker' },
  lastHour: 'Last hour',
  lastDay: 'Last 24 hours',
  noRate: 'no data',
  failuresTitle: 'Latest failure reasons',
  noFailures: 'No failures in the last 24 hours.',
  outcomes: { failed: 'Failed', throttled: 'Throttled', invalid: 'Recipient refused' },
  plotTitle: 'Rates over the last 24 hours',
  sendRate: 'Send rate',
  deliveryRate: 'Delivery rate',
  /** {provider}, {send}, {delivery}: the plot in words for screen readers. */
  plotSummary: '{provider}, hourly over the last 24 hours: send rate {send}; delivery rate {delivery}.',
  /** {low}, {high}, {latest}. */
  rangeSummary: 'lowest {low}, highest {high}, latest {latest}',
  noPoints: 'no sends',
  dayAgo: '24 h ago',
  halfDayAgo: '12 h ago',
  now: 'now',
  figuresTitle: 'The plot as a table',
  hourColumn: 'Hour starting',
};
