/**
 * A circuit breaker per delivery provider, kept in a Durable Object (one object per provider name), so that
 * every isolate and every request sees the same state: module memory would give each isolate its own breaker
 * and let a dead provider eat one send per isolate.
 *
 * closed → (DELIVERY_BREAKER_FAILURES failed sends in a row) → open: the provider is skipped →
 * (DELIVERY_BREAKER_OPEN_SECONDS later) half-open: exactly one send is let through as a trial →
 * its success closes the breaker, its failure opens it again for another period. A trial whose outcome never
 * arrives (the isolate died mid-send) is given up after `trialMs` and another trial is let through.
 *
 * The object answers plain fetch calls (no RPC, no import of cloudflare:workers), so this file also loads in
 * Node, where the function tests import the Worker. The time is the gateway's clock (now(c)), passed in, so a
 * test on a fake clock moves the breaker too. A Durable Object handles one event at a time and its storage
 * writes are confirmed before its answer leaves (input and output gates): each call's read-modify-write is atomic.
 */

export type BreakerStateName = 'closed' | 'open' | 'half-open';

export interface BreakerState {
  state: BreakerStateName;
  /** Failed sends in a row. */
  failures: number;
  /** When an open breaker lets its trial send through. */
  retryAt: number | null;
  /** Until when the half-open trial is awaited. */
  trialUntil: number | null;
  /** When the state last changed. */
  changedAt: number | null;
}

export interface BreakerSettings {
  /** Failures in a row that open the breaker. */
  failures: number;
  openMs: number;
  /** How long a trial send may stay unreported before another is let through. */
  trialMs: number;
}

const CLOSED: BreakerState = { state: 'closed', failures: 0, retryAt: null, trialUntil: null, changedAt: null };

/** May a send go to the provider now? Returns the next state and the decision (pure, for the object below). */
export function acquire(current: BreakerState, now: number, settings: BreakerSettings): { state: BreakerState; allowed: boolean } {
  if (current.state === 'closed') return { state: current, allowed: true };
  if (current.state === 'open') {
    if (current.retryAt !== null && now < current.retryAt) return { state: current, allowed: false };
    return { state: { ...current, state: 'half-open', trialUntil: now + settings.trialMs, changedAt: now }, allowed: true };
  }
  // Half-open: one trial at a time; a lost trial is replaced once its time is up.
  if (current.trialUntil !== null && now < current.trialUntil) return { state: current, allowed: false };
  return { state: { ...current, trialUntil: now + settings.trialMs }, allowed: true };
}

/** The state after a send's outcome. */
export function report(current: BreakerState, ok: boolean, now: number, settings: BreakerSettings): BreakerState {
  if (ok) return current.state === 'closed' && current.failures === 0 ? current : { ...CLOSED, changedAt: current.state === 'closed' ? current.changedAt : now };
  const failures = current.failures + 1;
  const opens = current.state === 'half-open' || (current.state === 'closed' && failures >= settings.failures);
  if (opens) return { state: 'open', failures, retryAt: now + settings.openMs, trialUntil: null, changedAt: now };
  return { ...current, failures };
}

interface DurableObjectStateLike {
  storage: { get<T>(key: string): Promise<T | undefined>; put<T>(key: string, value: T): Promise<void> };
  blockConcurrencyWhile<T>(work: () => Promise<T>): Promise<T>;
}

/** The Durable Object class (wrangler.toml binding DELIVERY_BREAKERS), exported by functions/worker.ts. */
export class DeliveryBreaker {
  private current: BreakerState = CLOSED;

  constructor(private readonly ctx: DurableObjectStateLike) {
    void ctx.blockConcurrencyWhile(async () => {
      this.current = (await ctx.storage.get<BreakerState>('state')) ?? CLOSED;
    });
  }

  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (request.method === 'GET') return Response.json(this.current);
    const body = (await request.json()) as { now: number; ok?: boolean; settings: BreakerSettings };
    if (pathname === '/acquire') {
      const { state, allowed } = acquire(this.current, body.now, body.settings);
      await this.save(state);
      return Response.json({ allowed, state });
    }
    if (pathname === '/report') {
      await this.save(report(this.current, body.ok === true, body.now, body.settings));
      return Response.json({ state: this.current });
    }
    return new Response('not found', { status: 404 });
  }

  private async save(state: BreakerState) {
    if (state === this.current) return;
    this.current = state;
    await this.ctx.storage.put('state', state);
  }
}

/** The binding as the gateway sees it. */
export interface BreakerEnv {
  DELIVERY_BREAKERS?: Env['DELIVERY_BREAKERS'];
}

const stubOf = (env: BreakerEnv, provider: string) => env.DELIVERY_BREAKERS!.get(env.DELIVERY_BREAKERS!.idFromName(provider));

async function call<T>(env: BreakerEnv, provider: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = body === undefined ? { method: 'GET' } : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
  const answer = await stubOf(env, provider).fetch(`https://breaker${path}`, init);
  if (!answer.ok) throw new Error(`breaker ${provider} ${path}: HTTP ${answer.status}`);
  return (await answer.json()) as T;
}

/** A breaker that cannot be reached must not stop a send: the provider is tried, and the failure logged. */
const unreachable = (provider: string, error: unknown) =>
  console.error(JSON.stringify({ event: 'delivery_breaker_unreachable', provider, error: error instanceof Error ? error.message : String(error) }));

/**
 * The breaker client of deliver(). Without the binding, or when its object does not answer, every provider is
 * tried, as before breakers existed (the breaker saves time; it is never why a message is not sent).
 */
export const breakers = {
  async acquire(env: BreakerEnv, provider: string, now: number, settings: BreakerSettings): Promise<boolean> {
    if (!env.DELIVERY_BREAKERS) return true;
    try {
      return (await call<{ allowed: boolean }>(env, provider, '/acquire', { now, settings })).allowed;
    } catch (error) {
      unreachable(provider, error);
      return true;
    }
  },
  async report(env: BreakerEnv, provider: string, ok: boolean, now: number, settings: BreakerSettings): Promise<void> {
    if (!env.DELIVERY_BREAKERS) return;
    await call(env, provider, '/report', { now, ok, settings }).catch((error: unknown) => unreachable(provider, error));
  },
  async state(env: BreakerEnv, provider: string): Promise<BreakerState> {
    if (!env.DELIVERY_BREAKERS) return CLOSED;
    return call<BreakerState>(env, provider, '/state');
  },
};
