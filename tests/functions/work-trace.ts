import { vi } from 'vitest';

/**
 * The work a call does before it answers, in order, for timing classes (issue 48, classes 4 and 10): a script
 * that times answers learns only what differs in this list, so a known and an unknown address must show the same
 * one. Counted, not timed (a median on a shared machine is noise):
 *
 * - every wait on D1 as one entry: a statement alone, or a batch as its statements joined (one round trip),
 *   with its SQL (bound values left out);
 * - every WebCrypto operation that costs time (PBKDF2 and other key derivations, HMAC and other signatures,
 *   digests, key imports, encryptions), with its algorithm and, for PBKDF2, its iterations;
 * - every outbound fetch (a delivery provider), by its origin, and every call of a delivery breaker (a Durable
 *   Object) by its path.
 *
 * `binding` and `breakers` are a D1 and a breaker namespace to hand the call as its env.DB and
 * env.DELIVERY_BREAKERS; `stop()` ends the watch and returns the trace so far.
 */
export function traceWork(db: D1Database, namespace?: DurableObjectNamespace) {
  const trace: string[] = [];
  const sqlOf = new WeakMap<object, string>();
  const originals = new WeakMap<object, D1PreparedStatement>();
  const flat = (sql: string) => sql.replace(/\s+/g, ' ').trim();
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const ran = <T>(run: () => Promise<T>) => (trace.push(`d1: ${flat(sql)}`), run());
    const wrapped = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values), sql),
      first: (column?: string) => ran(() => (column === undefined ? statement.first() : statement.first(column))),
      run: () => ran(() => statement.run()),
      all: () => ran(() => statement.all()),
      raw: (options?: { columnNames?: boolean }) => ran(() => statement.raw(options as { columnNames: true })),
    } as unknown as D1PreparedStatement;
    originals.set(wrapped, statement);
    sqlOf.set(wrapped, sql);
    return wrapped;
  };
  const binding = {
    prepare: (query: string) => wrap(db.prepare(query), query),
    batch: (statements: D1PreparedStatement[]) => {
      trace.push(`d1 batch: ${statements.map((s) => flat(sqlOf.get(s) ?? '?')).join(' || ')}`);
      return db.batch(statements.map((s) => originals.get(s) ?? s));
    },
    exec: (query: string) => (trace.push(`d1 exec: ${flat(query)}`), db.exec(query)),
    withSession: () => binding,
    dump: db.dump.bind(db),
  } as unknown as D1Database;

  const subtle = crypto.subtle as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const spies = (['deriveBits', 'deriveKey', 'sign', 'verify', 'digest', 'importKey', 'encrypt', 'decrypt'] as const).map((name) => {
    const original = subtle[name]!.bind(crypto.subtle);
    return vi.spyOn(subtle, name).mockImplementation((...args: unknown[]) => {
      const algorithm = (name === 'importKey' ? args[2] : args[0]) as string | { name?: string; hash?: unknown; iterations?: number };
      const label = typeof algorithm === 'string' ? algorithm : `${algorithm?.name ?? '?'}${algorithm?.iterations ? ` ${algorithm.iterations}` : ''}`;
      trace.push(`crypto: ${name} ${label}`);
      return original(...args);
    });
  });
  const breakers =
    namespace &&
    ({
      idFromName: (name: string) => namespace.idFromName(name),
      get: (id: DurableObjectId) => {
        const stub = namespace.get(id);
        return {
          fetch: (input: RequestInfo | URL, init?: RequestInit) => {
            trace.push(`breaker: ${new URL(input instanceof Request ? input.url : String(input)).pathname}`);
            return stub.fetch(input as RequestInfo, init);
          },
        };
      },
    } as unknown as DurableObjectNamespace);
  const fetched = globalThis.fetch.bind(globalThis);
  const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation((input: RequestInfo | URL, init?: RequestInit) => {
    trace.push(`fetch: ${new URL(input instanceof Request ? input.url : String(input)).origin}`);
    return fetched(input, init);
  });
  return {
    binding,
    breakers,
    /** Ends the crypto and fetch watch; the trace of everything done so far. */
    stop(): string[] {
      for (const spy of spies) spy.mockRestore();
      fetchSpy.mockRestore();
      return [...trace];
    },
  };
}
