/**
 * A local run's count of what the gateway asks of D1 (`npm run load` reads it, issue 46): round trips (a statement
 * or a batch), and statements that read or write. Off until POST /dev/d1-meter turns it on; then every gateway
 * call's D1 binding is wrapped (app.ts). Never on in a deployment: only the dev routes turn it on.
 */
export interface D1MeterReading {
  roundTrips: number;
  reads: number;
  writes: number;
}

let metering = false;
const reading: D1MeterReading = { roundTrips: 0, reads: 0, writes: 0 };

/** Starts (or stops) counting from zero; answers what was counted until now. */
export function setD1Meter(on: boolean): D1MeterReading {
  const counted = { ...reading };
  metering = on;
  Object.assign(reading, { roundTrips: 0, reads: 0, writes: 0 });
  return counted;
}

export const d1MeterReading = (): D1MeterReading => ({ ...reading });
export const d1MeterOn = (): boolean => metering;

/** A write is a statement that changes rows (an UPDATE … RETURNING too); everything else reads. */
function count(sql: string): void {
  if (/^\s*(?:WITH\b[\s\S]*?\)\s*)?(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(sql)) reading.writes++;
  else reading.reads++;
}

/** `db` with every statement and round trip counted. */
export function meteredD1(db: D1Database): D1Database {
  const sqlOf = new WeakMap<object, string>();
  const originals = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const once = <T>(run: () => Promise<T>) => {
      reading.roundTrips++;
      count(sql);
      return run();
    };
    const wrapped = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values), sql),
      first: (column?: string) => once(() => (column === undefined ? statement.first() : statement.first(column))),
      run: () => once(() => statement.run()),
      all: () => once(() => statement.all()),
      raw: (options?: { columnNames?: boolean }) => once(() => statement.raw(options as { columnNames: true })),
    } as unknown as D1PreparedStatement;
    sqlOf.set(wrapped, sql);
    originals.set(wrapped, statement);
    return wrapped;
  };
  return {
    prepare: (sql: string) => wrap(db.prepare(sql), sql),
    batch: (statements: D1PreparedStatement[]) => {
      reading.roundTrips++;
      for (const statement of statements) count(sqlOf.get(statement) ?? '');
      return db.batch(statements.map((statement) => originals.get(statement) ?? statement));
    },
    exec: (sql: string) => {
      reading.roundTrips++;
      count(sql);
      return db.exec(sql);
    },
    withSession: (constraint?: string) => meteredD1(db.withSession(constraint) as unknown as D1Database),
    dump: db.dump.bind(db),
  } as unknown as D1Database;
}
