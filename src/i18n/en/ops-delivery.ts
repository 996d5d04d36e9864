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
  /** A provider's state in plain words, coloured by what came of its sends (src/lib/delivery-state.ts). {count}, {time}. */
  states: {
    sending: 'Sending',
    failedInRow: 'Sending; {count} failed in a row',
    allFailed: 'Every send in the last hour failed ({count} in a row)',
    idle: 'Ready; nothing sent in the last hour',
    paused: 'Paused after {count} failures, trying again at {time}',
    trial: 'Trying one send to see whether it works again',
  },
  channelsTitle: 'What people got in the last hour',
  /** The channels of the lines below: {code} a calling code with a list of its own. */
  channels: { sms: 'SMS to +86', smsInternational: 'SMS to other countries', email: 'E-mail' },
  callingCodeChannel: 'SMS to {code}',
  /** {channel}, {count}, {providers}. */
  channelSent: '{channel}: {count} sent, by {providers}.',
  channelQuiet: '{channel}: nothing to send.',
  /** A text channel none of whose providers sent: the sign-in form offers the code by e-mail (DL0010). */
  channelNoText: 'No {channel} in the last hour; people are offered e-mail.',
  channelNoEmail: 'No e-mail went out in the last hour; codes and notices by e-mail are not arriving.',
  tableLabel: 'Sends, failures and delivery rates per provider',
  columns: { provider: 'Provider', period: 'Period', tries: 'Tries', sent: 'Sent', failed: 'Failed', sendRate: 'Send rate', deliveryRate: 'Delivery rate', breaker: 'State' },
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
