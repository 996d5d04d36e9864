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

/** The words that can begin what a statement does; the first four change rows. */
const VERBS = ['insert', 'update', 'delete', 'replace', 'select', 'values', 'pragma'];
const CHANGING = new Set(VERBS.slice(0, 4));

/**
 * A statement's verb: its first word in VERBS outside brackets, so that a leading common table expression is passed over.
 * The meter looks no further than that word.
 */
export function verbOf(statement: string): string | null {
  let depth = 0;
  for (const [token] of statement.toLowerCase().matchAll(/[()]|[a-z]+/g)) {
    if (token === '(') depth++;
    else if (token === ')') depth--;
    else if (depth === 0 && VERBS.includes(token)) return token;
  }
  return null;
}

/** A write is a statement whose verb changes rows (one that returns rows as well); everything else reads. */
function count(statement: string): void {
  const verb = verbOf(statement);
  if (verb !== null && CHANGING.has(verb)) reading.writes++;
  else reading.reads++;
}

/** `db` with every statement and round trip counted. */
export function meteredD1(db: D1Database): D1Database {
  const textOf = new WeakMap<object, string>();
  const originals = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement, text: string): D1PreparedStatement => {
    const once = <T>(run: () => Promise<T>) => {
      reading.roundTrips++;
      count(text);
      return run();
    };
    const wrapped = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values), text),
      first: (column?: string) => once(() => (column === undefined ? statement.first() : statement.first(column))),
      run: () => once(() => statement.run()),
      all: () => once(() => statement.all()),
      raw: (options?: { columnNames?: boolean }) => once(() => statement.raw(options as { columnNames: true })),
    } as unknown as D1PreparedStatement;
    textOf.set(wrapped, text);
    originals.set(wrapped, statement);
    return wrapped;
  };
  return {
    prepare: (text: string) => wrap(db.prepare(text), text),
    batch: (statements: D1PreparedStatement[]) => {
      reading.roundTrips++;
      for (const statement of statements) count(textOf.get(statement) ?? '');
      return db.batch(statements.map((statement) => originals.get(statement) ?? statement));
    },
    exec: (text: string) => {
      reading.roundTrips++;
      count(text);
      return db.exec(text);
    },
    withSession: (constraint?: string) => meteredD1(db.withSession(constraint) as unknown as D1Database),
    dump: db.dump.bind(db),
  } as unknown as D1Database;
}
