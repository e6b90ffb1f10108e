import { openDatabase } from '../../src/core/db/index.js';
import { migrateToLatest } from '../../src/core/db/migrations.js';
import { createAccountsService } from '../../src/accounts/accounts-service.js';
import { systemClock } from '../../src/core/clock.js';
import type { DatabaseConfig } from '../../src/core/config.js';
import { eventBody } from './harness.js';
import type { ServerProcess } from './process.js';

/** What the fault tests accept for a failed request: 503 database_unavailable asking to retry (never 500). */
export function isRetryable503(o: Pick<WriteOutcome, 'status' | 'code' | 'retryAfter'>): boolean {
  return o.status === 503 && o.code === 'database_unavailable' && o.retryAfter === '5';
}

/** Polls /healthz until it answers `status`; each check is bounded, so a hanging health check fails the test. */
export async function waitForHealth(server: ServerProcess, status: number): Promise<{ body: unknown; retryAfter: string | null }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(30_000) });
    const body = (await res.json()) as unknown;
    if (res.status === status) return { body, retryAfter: res.headers.get('retry-after') };
    if (Date.now() > deadline) throw new Error(`/healthz still ${res.status}: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Migrates a fresh database and makes one organizer; returns the organizer's API key. */
export async function seedOrganizer(config: DatabaseConfig): Promise<string> {
  const handle = openDatabase(config);
  try {
    await migrateToLatest(handle.db);
    const accounts = createAccountsService({ db: handle.db, clock: systemClock });
    const org = await accounts.createUser({ email: 'org@example.com', role: 'organizer' });
    return (await accounts.createKey(org.id)).key;
  } finally {
    await handle.close();
  }
}

/** Ids of those events that the database holds. */
export async function storedEventIds(config: DatabaseConfig, ids: string[]): Promise<Set<string>> {
  const handle = openDatabase(config);
  try {
    const found = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await handle.db
        .selectFrom('events')
        .select('id')
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const r of rows) found.add(r.id);
    }
    return found;
  } finally {
    await handle.close();
  }
}

/** One answered (or failed) write: status 0 when no HTTP answer came (the process is gone, a reset). */
export interface WriteOutcome {
  seq: number;
  server: number;
  status: number;
  code: string | undefined;
  retryAfter: string | null;
  /** The created event's id, on 201. */
  id: string | undefined;
  error?: string;
}

export interface WriteLoad {
  outcomes: WriteOutcome[];
  /** Resolves once `done(outcomes)` holds (checked after every outcome); rejects if a server process exits first, or after `limitMs`. */
  until(what: string, done: (outcomes: WriteOutcome[]) => boolean, limitMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `concurrency` clients creating events as fast as they can, spread over the server processes in
 * turn. Each write is a transaction on the server (the event and its organizer row).
 */
export function startWriteLoad(servers: ServerProcess[], key: string, concurrency: number): WriteLoad {
  const outcomes: WriteOutcome[] = [];
  const waiters = new Set<() => void>();
  let stopped = false;
  let next = 0;

  async function write(worker: number): Promise<WriteOutcome> {
    const seq = next++;
    const server = seq % servers.length;
    try {
      const res = await fetch(`${servers[server]!.url}/api/v1/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(eventBody(new Date(), { name: `Load ${worker}-${seq}` })),
        // Far beyond any configured database limit: a hang fails the test instead of stalling it.
        signal: AbortSignal.timeout(60_000),
      });
      const text = await res.text();
      let body: { id?: string; code?: string } = {};
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        /* not JSON */
      }
      return { seq, server, status: res.status, code: body.code, retryAfter: res.headers.get('retry-after'), id: res.status === 201 ? body.id : undefined };
    } catch (err) {
      return { seq, server, status: 0, code: undefined, retryAfter: null, id: undefined, error: String((err as Error).cause ?? err) };
    }
  }

  const workers = Array.from({ length: concurrency }, async (_, worker) => {
    while (!stopped) {
      const outcome = await write(worker);
      outcomes.push(outcome);
      for (const wake of [...waiters]) wake();
      // No answer, or the database is away: a short pause instead of spinning (Retry-After is longer,
      // but the test wants to see the service come back as soon as it does).
      if (outcome.status === 0 || outcome.status === 503) await new Promise((r) => setTimeout(r, 100));
    }
  });

  return {
    outcomes,
    until(what, done, limitMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const dead = servers.findIndex((s) => s.child.exitCode !== null || s.child.signalCode !== null);
          if (done(outcomes)) finish();
          else if (dead >= 0)
            finish(
              new Error(
                `server ${dead} exited (${servers[dead]!.child.exitCode ?? servers[dead]!.child.signalCode}) while waiting for ${what}:\n${servers[dead]!.stderr().slice(-3000)}`,
              ),
            );
        };
        const timer = setTimeout(() => finish(new Error(`timed out waiting for ${what}`)), limitMs);
        const poll = setInterval(check, 100);
        const finish = (err?: Error) => {
          clearTimeout(timer);
          clearInterval(poll);
          waiters.delete(check);
          if (err) reject(err);
          else resolve();
        };
        waiters.add(check);
        check();
      });
    },
    async stop() {
      stopped = true;
      await Promise.all(workers);
    },
  };
}
