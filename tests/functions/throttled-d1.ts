/**
 * The local D1 of the function tests answers through an HTTP bridge into workerd (wrangler's platform proxy).
 * On a loaded machine, a hundred statements sent at once over that bridge fail now and then with undici's
 * "other side closed" (a keep-alive socket that workerd dropped), which the gateway can only answer as a 500.
 * This wraps a D1 binding so that at most `max` statements are on the bridge at a time. Requests still run in
 * parallel and their statements still interleave in any order (D1 runs one statement at a time anyway), so a
 * race that the gateway has shows just the same; only the transport is queued.
 */
export function throttledD1(db: D1Database, max = 6): D1Database {
  return throttled(db, { active: 0, waiting: [] }, max);
}

/** One queue for the binding and every D1 session (withSession) made from it: they share the bridge. */
function throttled(db: D1Database, queue: { active: number; waiting: (() => void)[] }, max: number): D1Database {
  const waiting = queue.waiting;
  async function slot<T>(run: () => Promise<T>): Promise<T> {
    if (queue.active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    queue.active++;
    try {
      return await run();
    } finally {
      queue.active--;
      waiting.shift()?.();
    }
  }

  const originals = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values)),
      first: (column?: string) => slot(() => (column === undefined ? statement.first() : statement.first(column))),
      run: () => slot(() => statement.run()),
      all: () => slot(() => statement.all()),
      raw: (options?: { columnNames?: boolean }) => slot(() => statement.raw(options as { columnNames: true })),
    } as unknown as D1PreparedStatement;
    originals.set(wrapped, statement);
    return wrapped;
  };
  return {
    prepare: (query: string) => wrap(db.prepare(query)),
    batch: (statements: D1PreparedStatement[]) => slot(() => db.batch(statements.map((s) => originals.get(s) ?? s))),
    exec: (query: string) => slot(() => db.exec(query)),
    withSession: (constraint?: string) => {
      const session = db.withSession(constraint);
      return throttled({ ...session, prepare: session.prepare.bind(session), batch: session.batch.bind(session), exec: db.exec.bind(db), withSession: () => session, dump: db.dump.bind(db) } as unknown as D1Database, queue, max);
    },
    dump: db.dump.bind(db),
  } as unknown as D1Database;
}
