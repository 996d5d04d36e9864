import { describe, expect, it } from 'vitest';
import { channelLines, providerState } from '../../src/lib/delivery-state';

const hour = (tries: number, sends: number) => ({ tries, sends, failures: tries - sends, delivered: 0, undelivered: 0, sendRate: tries ? sends / tries : null, deliveryRate: null });
const closed = (failures = 0) => ({ state: 'closed' as const, failures, retryAt: null, changedAt: null });

describe('providerState (issue 47 item 7)', () => {
  it('calls a closed breaker over a provider that failed every send bad, not good', () => {
    expect(providerState({ breaker: closed(3), hour: hour(3, 0) })).toEqual({ kind: 'sending', outcome: 'bad', failedInRow: 3, allFailed: true });
  });
  it('says sending, coloured by what came of it', () => {
    expect(providerState({ breaker: closed(), hour: hour(10, 10) }).outcome).toBe('good');
    expect(providerState({ breaker: closed(1), hour: hour(10, 9) }).outcome).toBe('warning');
    expect(providerState({ breaker: closed(), hour: hour(0, 0) }).outcome).toBe('idle');
  });
  it('says paused after how many failures and until when, and a trial send', () => {
    expect(providerState({ breaker: { state: 'open', failures: 5, retryAt: 1000, changedAt: 1 }, hour: hour(5, 0) })).toEqual({ kind: 'paused', outcome: 'bad', failures: 5, retryAt: 1000 });
    expect(providerState({ breaker: { state: 'half-open', failures: 5, retryAt: null, changedAt: 1 }, hour: hour(5, 0) }).kind).toBe('trial');
  });
});

describe('channelLines', () => {
  const open = { state: 'open' as const, failures: 5, retryAt: 1, changedAt: 1 };
  it('says a channel sent nothing in the last hour when its messages all failed, or every provider of it is paused', () => {
    const lines = channelLines(
      [
        { route: 'email', messages: 4, sent: 4, providers: ['ses'] },
        { route: '+852', messages: 0, sent: 0, providers: [] },
        { route: 'sms', messages: 3, sent: 0, providers: [] },
        { route: 'smsInternational', messages: 0, sent: 0, providers: [] },
      ],
      [
        { routes: ['sms'], breaker: open },
        { routes: ['smsInternational'], breaker: open },
        { routes: ['+852'], breaker: closed() },
      ],
    );
    expect(lines).toEqual([
      { route: 'sms', kind: 'none', outcome: 'bad' },
      { route: 'smsInternational', kind: 'none', outcome: 'bad' },
      { route: 'email', kind: 'sent', sent: 4, messages: 4, providers: ['ses'], outcome: 'good' },
      { route: '+852', kind: 'quiet', outcome: 'idle' },
    ]);
  });
  it('names the providers that sent, and warns when some messages did not go out', () => {
    const [line] = channelLines([{ route: 'sms', messages: 4, sent: 3, providers: ['tencent'] }], [{ routes: ['sms'], breaker: closed(3) }]);
    expect(line).toEqual({ route: 'sms', kind: 'sent', sent: 3, messages: 4, providers: ['tencent'], outcome: 'warning' });
  });
});
