/**
 * The audit tab's first page: does GET /events/:id/audit cost the same at 100 and at 100,000
 * entries? (Issue 21's bar: the large/small ratio within 20 %.)
 *
 *   node --import tsx bench/audit.ts                          # SQLite and PostgreSQL
 *   BENCH_DIALECTS=sqlite BENCH_SECONDS=3 node --import tsx bench/audit.ts
 *
 * The app runs in this process; autocannon runs as a child process so the load generator does not
 * share its event loop. Entries are inserted straight through Kysely (the table is append-only:
 * inserts are all it takes) into two events of one database, each entry an `event.updated` with a
 * field diff of a few hundred bytes, one second apart; runs alternate small, large, large, small so
 * that a change in the machine's load falls on both. Per dialect it prints the first page's req/s
 * and latency at both sizes, their ratio, and the same for the admin log filtered to each event.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { CompiledQuery, type Insertable } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/core/config.js';
import { openDatabase, type Db } from '../src/core/db/index.js';
import type { AuditLogTable } from '../src/core/db/schema.js';
import { migrateToLatest } from '../src/core/db/migrations.js';
import { newId } from '../src/core/ids.js';
import { createBenchDatabase } from './submit-bench.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = 10;
const SMALL = 100;
const LARGE = Number(process.env.BENCH_LARGE ?? 100_000);
const BATCH = 500;
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/** `count` entries of the event, one second apart, by one organizer. */
async function seed(db: Db, eventId: string, actor: { id: string; email: string }, count: number) {
  const base = Date.parse('2030-01-01T00:00:00.000Z');
  for (let chunk = 0; chunk < count; chunk += 5000) {
    await db.transaction().execute(async (tx) => {
      for (let start = chunk; start < Math.min(count, chunk + 5000); start += BATCH) {
        const rows: Insertable<AuditLogTable>[] = [];
        for (let i = start; i < Math.min(count, start + BATCH); i++) {
          const at = base + i * 1000;
          rows.push({
            id: newId('aud', at),
            event_id: eventId,
            actor_user_id: actor.id,
            actor_label: actor.email,
            action: i % 5 === 0 ? 'registration.approved' : 'event.updated',
            target_type: 'event',
            target_id: eventId,
            data: JSON.stringify({
              changes: [
                { field: 'submission_deadline', before: new Date(at).toISOString(), after: new Date(at + 86_400_000).toISOString() },
                { field: 'description', before: `Build something agents love, round ${i}.`, after: `Build something agents love, round ${i + 1}.` },
              ],
            }),
            created_at: new Date(at).toISOString(),
          });
        }
        await tx.insertInto('audit_log').values(rows).execute();
      }
    });
  }
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

function autocannon(url: string, key: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [autocannonBin, '-j', '-c', String(CONNECTIONS), '-d', String(SECONDS), '-H', `authorization=Bearer ${key}`, url], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', () => {
      try {
        const r = JSON.parse(out);
        resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts });
      } catch (err) {
        reject(new Error(`autocannon output: ${out.slice(0, 200)} (${(err as Error).message})`));
      }
    });
  });
}

async function benchDialect(dialect: 'sqlite' | 'postgres') {
  const testDb = await createBenchDatabase(dialect, 'audit');
  const config = loadConfig({
    DATABASE_URL: testDb.config.url,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ENABLED: 'false',
    MAX_CONNECTIONS_PER_IP: '0',
    REVIEW_WORKERS: 'false',
    PUBLIC_URL: 'http://127.0.0.1',
  });
  const database = openDatabase(testDb.config);
  await migrateToLatest(database.db);
  const { app, ctx } = await buildApp({ config, database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const base = `http://127.0.0.1:${port}/api/v1`;
  try {
    const org = await ctx.accounts.createUser({ email: 'org@audit.test', role: 'admin' });
    const key = (await ctx.accounts.createKey(org.id)).key;
    const createEvent = async (name: string) => {
      const created = await fetch(`${base}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name, registration_deadline: '2031-01-01T00:00:00Z', submission_deadline: '2031-02-01T00:00:00Z' }),
      });
      return ((await created.json()) as { id: string }).id;
    };
    const events = { small: await createEvent('Small'), large: await createEvent('Large') };
    for (const [label, size] of [
      ['small', SMALL],
      ['large', LARGE],
    ] as const) {
      const t0 = performance.now();
      await seed(database.db, events[label], org, size);
      console.log(`[${dialect}] seeded ${size.toLocaleString()} audit entries in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    await database.db.executeQuery(CompiledQuery.raw('ANALYZE'));

    const routes = {
      'event audit': (id: string) => `${base}/events/${id}/audit`,
      'admin audit ?event_id': (id: string) => `${base}/admin/audit?event_id=${id}`,
    };
    // A warm-up of every route at both sizes, discarded: the first runs would otherwise pay for the JIT.
    for (const url of Object.values(routes)) for (const id of Object.values(events)) await autocannon(url(id), key);
    for (const [name, url] of Object.entries(routes)) {
      const runs: Record<'small' | 'large', Run[]> = { small: [], large: [] };
      for (const label of ['small', 'large', 'large', 'small'] as const) runs[label].push(await autocannon(url(events[label]), key));
      const merged = (label: 'small' | 'large'): Run => {
        const [a, b] = runs[label] as [Run, Run];
        return { rps: (a.rps + b.rps) / 2, p50: (a.p50 + b.p50) / 2, p99: Math.max(a.p99, b.p99), non2xx: a.non2xx + b.non2xx, errors: a.errors + b.errors };
      };
      const s = merged('small');
      const l = merged('large');
      for (const [label, r] of [
        ['small', s],
        ['large', l],
      ] as const) {
        console.log(
          `[${dialect}] ${label.padEnd(5)} ${name} first page (limit 100): ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}`,
        );
      }
      const ratio = l.rps / s.rps;
      console.log(
        `[${dialect}] ${name}: large/small first page req/s ${ratio.toFixed(2)} (${ratio >= 0.8 ? 'the large page is at most 20 % slower' : 'the large page is MORE than 20 % slower'})`,
      );
    }
  } finally {
    await app.close();
    await database.close();
    await testDb.drop();
  }
}

for (const dialect of DIALECTS) await benchDialect(dialect);
