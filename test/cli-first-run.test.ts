import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './helpers/databases.js';
import { spawnServer, type ServerProcess } from './helpers/process.js';

const ROOT = resolve(import.meta.dirname, '..');

/** Runs one printed line in a shell with none of the server's variables; only `npx hackathon` is mapped to this checkout's source. */
function runAsPrinted(line: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const command = line.replace(/\bnpx hackathon\b/, `"${process.execPath}" --import tsx src/cli.ts`);
  return new Promise((done) => {
    execFile(
      '/bin/sh',
      ['-c', command],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent' }, timeout: 30_000 },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The first-run hint of `hackathon serve`, followed as printed, creates a key that works on that server. */
describe('first-run hint', () => {
  let dir: string;
  let pg: TestDatabase;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    // A space in the path: the printed commands must be quoted to survive the shell.
    dir = mkdtempSync(join(tmpdir(), 'hk first run '));
    pg = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    for (const s of servers) {
      s.child.kill('SIGKILL');
      await s.exited;
    }
    await pg?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function followHint(env: Record<string, string>) {
    const server = await spawnServer({ REVIEW_WORKERS: 'false', DATABASE_URL: '', DATA_DIR: '', ...env });
    servers.push(server);
    // The hint is written just after the server starts listening: wait for it, not for a time.
    await expect.poll(() => server.stderr(), { timeout: 20_000 }).toMatch(/npx hackathon keys create.*\n/);
    const hint = server.stderr();
    const lines = [...hint.matchAll(/^ {2}(.*npx hackathon .*)$/gm)].map((m) => m[1]!);
    expect(lines, hint).toHaveLength(2);
    const user = await runAsPrinted(lines[0]!);
    expect(user.code, user.stderr).toBe(0);
    const key = await runAsPrinted(lines[1]!);
    expect(key.code, key.stderr).toBe(0);
    const res = await fetch(`${server.url}/api/v1/events?mine=true`, { headers: { authorization: `Bearer ${key.stdout.trim()}` } });
    expect(res.status).toBe(200);
    return { hint, lines };
  }

  it('with a non-default SQLite DATABASE_URL', async () => {
    const { lines } = await followHint({ DATABASE_URL: `sqlite:${join(dir, 'db', 'first.db')}` });
    expect(lines[0]).toContain(`DATABASE_URL='sqlite:${join(dir, 'db', 'first.db')}' npx hackathon users create`);
  }, 90_000);

  it('with DATA_DIR', async () => {
    const { lines } = await followHint({ DATA_DIR: join(dir, 'data') });
    expect(lines[1]).toBe(`DATA_DIR='${join(dir, 'data')}' npx hackathon keys create --email you@example.com`);
  }, 90_000);

  it('with a PostgreSQL URL holding a password, which is never printed', async () => {
    const url = new URL(pg.config.url);
    url.password = 'n0t-for-logs';
    // The test server trusts local connections, so the placeholder password still connects.
    const { hint } = await followHint({ DATABASE_URL: url.toString() });
    expect(hint).not.toContain('n0t-for-logs');
    expect(hint).toContain(':<password>@');
    expect(hint).toMatch(/replace <password>/);
  }, 90_000);
});
