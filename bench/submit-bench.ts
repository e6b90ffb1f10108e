/**
 * What the write benchmarks (bench/idempotency.ts, bench/webhooks.ts) share: a scratch database per
 * dialect, an in-process app with an organizer, an open event and an approved team, the team's
 * `POST /events/:id/submit` (a real project update each time), and the mirrored runs and their table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config, type DatabaseConfig } from '../src/core/config.js';
import { openDatabase, type DatabaseHandle } from '../src/core/db/index.js';
import { migrateToLatest } from '../src/core/db/migrations.js';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
export const CONNECTIONS = 10;
const PG_ADMIN = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;

/** A new SQLite file or PostgreSQL database, `prefix` in its name, dropped by `drop()`. */
export async function createBenchDatabase(dialect: 'sqlite' | 'postgres', prefix: string): Promise<{ config: DatabaseConfig; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `hk-${prefix}-`));
    const path = join(dir, 'bench.db');
    return { config: { dialect: 'sqlite', path, url: `sqlite:${path}` }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `hk_${prefix}_${Date.now().toString(36)}`;
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

export interface SubmitBench {
  config: Config;
  handle: DatabaseHandle;
  ctx: Awaited<ReturnType<typeof buildApp>>['ctx'];
  url: string;
  /** A JSON call with a key; throws on a status of 300 or more. */
  call: (method: string, path: string, key: string, body?: unknown) => Promise<Record<string, string>>;
  orgKey: string;
  teamKey: string;
  /** The submit route, its body and headers (the team's key). */
  path: string;
  body: string;
  headers: Record<string, string>;
  close: () => Promise<void>;
}

/** The app on 127.0.0.1 with `env` on top of the bench settings, and the submit a write bench measures. */
export async function startSubmitBench(
  dialect: 'sqlite' | 'postgres',
  prefix: string,
  description: string,
  env: Record<string, string> = {},
): Promise<SubmitBench> {
  const database = await createBenchDatabase(dialect, prefix);
  const config = loadConfig({
    DATABASE_URL: database.config.url,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ENABLED: 'false',
    REVIEW_WORKERS: 'false',
    MAX_CONNECTIONS_PER_IP: '0',
    PASSWORD_SCRYPT_N: '16384',
    ...env,
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
    description,
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
  return {
    config,
    handle,
    ctx,
    url,
    call,
    orgKey,
    teamKey,
    path: `/api/v1/events/${event.id}/submit`,
    body: JSON.stringify({ name: 'Rocket', github_url: 'https://github.com/team/rocket', description: 'x'.repeat(500) }),
    headers: { authorization: `Bearer ${teamKey}`, 'content-type': 'application/json' },
    async close() {
      await app.close();
      await handle.close();
      await database.drop();
    },
  };
}

/**
 * Each scenario twice, in a mirrored order so that a change in the machine's load falls on all of
 * them; `prepare` sets a scenario up and returns autocannon's options for it. Prints one row each.
 */
export async function runMirrored<S>(
  title: string,
  scenarios: Array<[string, S]>,
  prepare: (scenario: S) => Promise<autocannon.Options> | autocannon.Options,
): Promise<void> {
  const order = [...scenarios, ...[...scenarios].reverse()];
  const results = new Map<string, Array<{ rps: number; p50: number; p99: number; non2xx: number }>>();
  for (const [name, scenario] of order) {
    const result = await autocannon(await prepare(scenario));
    const list = results.get(name) ?? [];
    list.push({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx });
    results.set(name, list);
  }
  console.log(`\n${title}`);
  const width = Math.max(...scenarios.map(([name]) => name.length)) + 2;
  for (const [name] of scenarios) {
    const r = results.get(name)!;
    const avg = (f: (x: (typeof r)[number]) => number) => r.reduce((s, x) => s + f(x), 0) / r.length;
    console.log(
      `  ${name.padEnd(width)} ${avg((x) => x.rps)
        .toFixed(0)
        .padStart(6)} req/s   p50 ${avg((x) => x.p50).toFixed(1)} ms   p99 ${avg((x) => x.p99).toFixed(1)} ms   non-2xx ${r.reduce((s, x) => s + x.non2xx, 0)}`,
    );
  }
}
