import type { Context } from 'hono';

/** Milliseconds since the epoch. The gateway reads time only through a clock so tests never sleep. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

declare module 'hono' {
  interface ContextVariableMap {
    /** Set once per request by the gateway (createGateway); tests inject a fake clock. */
    now: Clock;
  }
}

/** The current time for this request; the system clock when no gateway set one. */
export function now(c: Context): number {
  return (c.get('now') ?? systemClock)();
}
