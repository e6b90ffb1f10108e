import { CompiledQuery, SqliteAdapter, type Compilable, type QueryResult } from 'kysely';
import type { Executor } from './index.js';

/** Marks a parameter in a query built once: a string no real value is (a NUL byte, a fixed prefix). */
const MARK = '\u0000prepared:';

/** A named parameter of a prepared query (its value is given at each run). */
export function param<T>(name: string): T {
  return `${MARK}${name}` as unknown as T;
}

type Slot = { name: string } | { value: unknown };

interface Compiled {
  sql: string;
  slots: Slot[];
}

/**
 * A query built and compiled once per dialect, then run with new values: for the hot paths, where
 * Kysely's building and compiling of a query cost more than SQLite's running it. `build` makes the
 * query with `param('name')` where a value changes between runs; every other value is kept as it
 * was at build time. Only scalar parameters (no `in` lists, whose length would change the SQL).
 * The text is the one Kysely compiles, so SQLite's statement cache (core/db/index.ts) prepares it
 * once too.
 */
export function prepared<A extends object, R>(build: (db: Executor) => Compilable<R>) {
  const byDialect = new Map<'sqlite' | 'postgres', Compiled>();

  function compiledFor(db: Executor): Compiled {
    const dialect = db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres';
    let c = byDialect.get(dialect);
    if (!c) {
      const q = build(db).compile();
      c = {
        sql: q.sql,
        slots: q.parameters.map((p) => (typeof p === 'string' && p.startsWith(MARK) ? { name: p.slice(MARK.length) } : { value: p })),
      };
      byDialect.set(dialect, c);
    }
    return c;
  }

  return async function run(db: Executor, args: A): Promise<QueryResult<R>> {
    const c = compiledFor(db);
    const parameters = c.slots.map((s) => {
      if ('value' in s) return s.value;
      const v = (args as Record<string, unknown>)[s.name];
      if (v === undefined) throw new Error(`prepared query: no value for parameter ${s.name}`);
      return v;
    });
    return db.executeQuery<R>(CompiledQuery.raw(c.sql, parameters));
  };
}
