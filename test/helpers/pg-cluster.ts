import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { userInfo } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './process.js';

const run = promisify(execFile);

/** Where Debian puts PostgreSQL 15's server programs (PG_BIN overrides). */
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface ThrowawayCluster {
  port: number;
  /** postgres:// URL of `database` in this cluster. */
  url(database: string): string;
  /** Stops the server; `immediate` imitates a crash (no checkpoint, recovery at the next start). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops it if running and removes its files. */
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL cluster of the test's own, on a free port, that the test may stop and start (the
 * shared cluster on 5432 serves every other test and must never be stopped). initdb refuses to run
 * as root, so when the tests run as root the programs run as the `postgres` user, in a directory it
 * owns. Trust authentication on 127.0.0.1 only; fsync off (it is thrown away; an immediate stop
 * still keeps every commit, which sits in the OS's cache).
 */
export async function startThrowawayCluster(): Promise<ThrowawayCluster> {
  if (!existsSync(join(PG_BIN, 'initdb'))) throw new Error(`PostgreSQL server programs not found in ${PG_BIN}; set PG_BIN`);
  const asRoot = userInfo().uid === 0;
  const dir = mkdtempSync(join(tmpdir(), 'hk-pg-'));
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const pg = (program: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(PG_BIN, program), ...args]) : run(join(PG_BIN, program), args);
  const data = join(dir, 'data');
  await pg('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  let running = false;
  const start = async () => {
    await pg('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
    running = true;
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    await pg('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
    running = false;
  };
  await start();
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop,
    start,
    async destroy() {
      if (running) await stop('immediate').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
