import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/**
 * Runs the real CLI (`hackathon serve`) in a child process and waits until it answers /healthz.
 * The free port is picked before the child binds it, so another process may take it in between:
 * then it starts again on a fresh port.
 */
export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnServerOnce(env);
    } catch (err) {
      if (attempt >= 3 || !/EADDRINUSE/.test((err as Error).message)) throw err;
    }
  }
}

async function spawnServerOnce(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    env: {
      ...process.env,
      LOG_LEVEL: process.env.TEST_SERVER_LOG ?? 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      REDIS_URL: '',
      GITHUB_API_URL: 'http://127.0.0.1:9',
      // As in the in-process harness: events may name models whose provider is not configured.
      AI_ACCEPT_UNCONFIGURED_MODELS: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d) => (err += String(d)));
  child.stdout.on('data', (d) => (err += String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  // Generous: several processes compiling their TypeScript at once on a busy machine take a while.
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}): ${err}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { child, url, stderr: () => err, exited };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server never answered: ${err}`);
}
