/**
 * Webhooks: what queueing deliveries adds to a write, and delivery throughput to a local receiver.
 *
 * 1. `POST /events/:id/submit` (a real project update each time, which queues project.updated in
 *    the same transaction) with no subscription, with the team's one subscription, and with five
 *    (the team's and four of the organizer's). The delivery worker is off meanwhile.
 * 2. Then the worker of this process delivers everything queued to a receiver on 127.0.0.1
 *    answering 204: messages per second, from the first claim to the last delivered row.
 *
 *   BENCH_DIALECTS=sqlite BENCH_SECONDS=3 node --import tsx bench/webhooks.ts
 */
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig, type DatabaseConfig } from '../src/core/config.js';
import { openDatabase } from '../src/core/db/index.js';
import { migrateToLatest } from '../src/core/db/migrations.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = 10;
const PG_ADMIN = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;

async function createDatabase(dialect: 'sqlite' | 'postgres'): Promise<{ config: DatabaseConfig; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'hk-whk-'));
    const path = join(dir, 'bench.db');
    return { config: { dialect: 'sqlite', path, url: `sqlite:${path}` }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `hk_whk_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return {
    config: { dialect: 'postgres', url: url.toString() },
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function run(dialect: 'sqlite' | 'postgres'): Promise<void> {
  const database = await createDatabase(dialect);
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const config = loadConfig({
    DATABASE_URL: database.config.url,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ENABLED: 'false',
    REVIEW_WORKERS: 'false',
    WEBHOOKS_WORKERS: 'false',
    WEBHOOKS_ALLOW_LOOPBACK: 'true',
    WEBHOOKS_CONCURRENCY: process.env.BENCH_WEBHOOKS_CONCURRENCY ?? '16',
    MAX_CONNECTIONS_PER_IP: '0',
    PASSWORD_SCRYPT_N: '16384',
  });
  const handle = openDatabase(database.config);
  await migrateToLatest(handle.db);
  const { app, ctx } = await buildApp({ config, database: handle, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await res.json()) as Record<string, string>;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const org = await ctx.accounts.createUser({ email: 'org@example.com', password: 'correct horse battery', role: 'organizer' });
  const orgKey = (await ctx.accounts.createKey(org.id)).key;
  const day = 86_400_000;
  const event = await call('POST', '/api/v1/events', orgKey, {
    name: 'Bench',
    description: 'Webhooks bench.',
    tracks: [{ id: 'tools', name: 'Tools' }],
    dimensions: [{ name: 'impact', weight: 1 }],
    models: [],
    registration_deadline: new Date(Date.now() + day).toISOString(),
    submission_deadline: new Date(Date.now() + 2 * day).toISOString(),
    registration_config: { open: true, auto_approve: true, fields: [] },
  });
  const team = await ctx.accounts.createUser({ email: 'team@example.com', password: 'correct horse battery', role: 'user' });
  const teamKey = (await ctx.accounts.createKey(team.id)).key;
  await call('POST', `/api/v1/events/${event.id}/register`, teamKey, { team_name: 'Bench team', track_id: 'tools', fields: {} });
  const path = `/api/v1/events/${event.id}/submit`;
  const body = JSON.stringify({ name: 'Rocket', github_url: 'https://github.com/team/rocket', description: 'x'.repeat(500) });
  const headers = { authorization: `Bearer ${teamKey}`, 'content-type': 'application/json' };
  await fetch(url + path, { method: 'POST', headers, body });

  const subscribe = (key: string) => call('POST', '/api/v1/webhooks', key, { url: hookUrl, events: ['project.submitted', 'project.updated'] });
  // Earlier scenarios' subscriptions are disabled (not deleted), so their queued rows stay for the delivery run.
  const setSubscriptions = async (n: number) => {
    await handle.db.updateTable('webhooks').set({ disabled_at: new Date().toISOString() }).execute();
    if (n >= 1) await subscribe(teamKey);
    for (let i = 1; i < n; i++) await subscribe(orgKey);
  };
  const scenarios: Array<[string, number]> = [
    ['no subscription', 0],
    ['1 subscription', 1],
    ['5 subscriptions', 5],
  ];
  const order = [...scenarios, ...[...scenarios].reverse()];
  const results = new Map<string, Array<{ rps: number; p50: number; p99: number; non2xx: number }>>();
  for (const [name, n] of order) {
    await setSubscriptions(n);
    const result = await autocannon({ url: url + path, method: 'POST', connections: CONNECTIONS, duration: SECONDS, headers, body });
    const list = results.get(name) ?? [];
    list.push({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx });
    results.set(name, list);
  }
  console.log(`\n${dialect}: POST /events/:id/submit, ${CONNECTIONS} connections, ${SECONDS} s per run, 2 runs each`);
  for (const [name] of scenarios) {
    const r = results.get(name)!;
    const avg = (f: (x: (typeof r)[number]) => number) => r.reduce((s, x) => s + f(x), 0) / r.length;
    console.log(
      `  ${name.padEnd(18)} ${avg((x) => x.rps)
        .toFixed(0)
        .padStart(6)} req/s   p50 ${avg((x) => x.p50).toFixed(1)} ms   p99 ${avg((x) => x.p99).toFixed(1)} ms   non-2xx ${r.reduce((s, x) => s + x.non2xx, 0)}`,
    );
  }

  // Delivery: every subscription enabled again, the worker delivers everything the writes queued.
  await handle.db.updateTable('webhooks').set({ disabled_at: null }).execute();
  const queued = async () =>
    Number(
      (
        await handle.db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '!=', 'delivered')
          .executeTakeFirstOrThrow()
      ).n,
    );
  const total = await queued();
  const started = performance.now();
  ctx.webhooks.start();
  while ((await queued()) > 0) await new Promise((r) => setTimeout(r, 100));
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `  delivery: ${total} messages to 127.0.0.1 in ${seconds.toFixed(2)} s = ${(total / seconds).toFixed(0)} msg/s (WEBHOOKS_CONCURRENCY ${config.webhooks.concurrency}, one process)`,
  );
  await app.close();
  await handle.close();
  await database.drop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
}

for (const dialect of DIALECTS) await run(dialect);
