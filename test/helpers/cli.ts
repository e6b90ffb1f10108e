import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { openDatabase } from '../../src/core/db/index.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'src', 'cli.ts');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `hackathon <args>` from the source tree with only `env` (plus PATH and HOME) set. */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<CliRun> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CLI, ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', ...env }, timeout: timeoutMs },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Opens the SQLite file the CLI wrote, runs `fn` on it, and closes it again. */
export async function withSqliteDb<T>(path: string, fn: (db: ReturnType<typeof openDatabase>['db']) => Promise<T>): Promise<T> {
  const database = openDatabase({ dialect: 'sqlite', path, url: `sqlite:${path}` });
  try {
    return await fn(database.db);
  } finally {
    await database.close();
  }
}
