import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountsService } from '../../src/accounts/accounts-service.js';
import { systemClock } from '../../src/core/clock.js';
import { openDatabase } from '../../src/core/db/index.js';
import { migrateToLatest } from '../../src/core/db/migrations.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { eventBody } from '../helpers/harness.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';

/** The real `hackathon serve` process: answered writes survive a crash; SIGTERM drains and exits. */
// Each test starts real server processes (two for the SIGKILL one): their start-up takes most of its time.
describe.each(DIALECTS)('server process (%s)', { timeout: 90_000 }, (dialect) => {
  let db: TestDatabase;
  let orgKey: string;
  let teamKey: string;
  let team2Key: string;
  let server: ServerProcess | null = null;
  // Request logs on (info): the long-poll test waits for its request to reach the server.
  const env = () => ({ DATABASE_URL: db.config.url, REVIEW_WORKERS: 'false', LOG_LEVEL: 'info' });

  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    const handle = openDatabase(db.config);
    await migrateToLatest(handle.db);
    const accounts = createAccountsService({ db: handle.db, clock: systemClock });
    const org = await accounts.createUser({ email: 'org@example.com', role: 'organizer' });
    orgKey = (await accounts.createKey(org.id)).key;
    const team = await accounts.createUser({ email: 'team@example.com' });
    teamKey = (await accounts.createKey(team.id)).key;
    const team2 = await accounts.createUser({ email: 'team2@example.com' });
    team2Key = (await accounts.createKey(team2.id)).key;
    await handle.close();
  });
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await db?.drop();
  });

  const call = (method: string, path: string, key: string, body?: unknown) =>
    fetch(`${server!.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });

  it('keeps every answered write across a SIGKILL', async () => {
    server = await spawnServer(env());
    const ev = await call('POST', '/api/v1/events', orgKey, {
      ...eventBody(new Date()),
      registration_config: { auto_approve: true, fields: [] },
    });
    expect(ev.status).toBe(201);
    const eventId = ((await ev.json()) as { id: string }).id;
    const reg = await call('POST', `/api/v1/events/${eventId}/register`, teamKey, { team_name: 'Survivors', track_id: 'tools' });
    expect(reg.status).toBe(201);
    const sub = await call('POST', `/api/v1/events/${eventId}/submit`, teamKey, {
      project_name: 'Phoenix',
      github_url: 'https://github.com/acme/phoenix',
    });
    expect(sub.status).toBe(201);

    server.child.kill('SIGKILL');
    await server.exited;
    server = await spawnServer(env());

    const mine = await call('GET', `/api/v1/events/${eventId}/my-registration`, teamKey);
    expect(mine.status).toBe(200);
    const body = (await mine.json()) as { team_name: string; status: string; project: { project_name: string } | null };
    expect(body.team_name).toBe('Survivors');
    expect(body.status).toBe('approved');
    expect(body.project?.project_name).toBe('Phoenix');
  });

  it('on SIGTERM answers a pending long-poll and exits cleanly', async () => {
    server ??= await spawnServer(env());
    const ev = await call('POST', '/api/v1/events', orgKey, eventBody(new Date()));
    const eventId = ((await ev.json()) as { id: string }).id;
    const reg = await call('POST', `/api/v1/events/${eventId}/register`, team2Key, {
      team_name: 'Waiters',
      track_id: 'tools',
      fields: { repo: 'https://github.com/acme/waiters' },
    });
    expect(reg.status).toBe(201);

    // wait=45, beyond the test's 30 s limit: only the drain on SIGTERM can answer it in time.
    const poll = call('GET', `/api/v1/events/${eventId}/my-registration?wait=45`, team2Key);
    // Wait for the server to have received the long-poll (its request log, which omits the query), not for a fixed time.
    const deadline = Date.now() + 10_000;
    while (!server.stderr().includes(`/api/v1/events/${eventId}/my-registration"`)) {
      if (Date.now() > deadline) throw new Error(`the server never logged the long-poll:\n${server.stderr()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    server.child.kill('SIGTERM');
    const res = await poll;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe('pending');
    expect(await server.exited, server.stderr()).toBe(0);
    server = null;
  });
});
