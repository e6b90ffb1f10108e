/** Starts bench/instrumented-server.ts as a child process and talks to its probe. */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export interface Probe {
  loopMaxMs: number;
  loopP99Ms: number;
  cpuMicros: number;
  rssMb: number;
  /** Statements the app ran since it started (PostgreSQL: round trips). */
  statements: number;
}

export interface BenchServer {
  url: string;
  child: ChildProcess;
  reset(): Promise<void>;
  probe(): Promise<Probe>;
  /** CPU profile of the server between the two calls, written to `file` (.cpuprofile, for DevTools). */
  profileStart(): Promise<void>;
  profileStop(file: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The Node flags the servers under test run with: those of `npm start` (package.json), so the
 * benchmarks measure the server as it is started; BENCH_NODE_FLAGS replaces them ("" for none).
 */
export function serverNodeFlags(): string[] {
  if (process.env.BENCH_NODE_FLAGS !== undefined) return process.env.BENCH_NODE_FLAGS.split(' ').filter(Boolean);
  const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
  const m = /^node((?: --\S+)*) dist\/cli\.js serve$/.exec(start);
  if (!m) throw new Error(`package.json's start script is not "node [flags] dist/cli.js serve": ${start}`);
  return m[1]!.split(' ').filter(Boolean);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startBenchServer(env: Record<string, string>): Promise<BenchServer> {
  const port = await freePort();
  const child = fork('bench/instrumented-server.ts', [], {
    execArgv: [...serverNodeFlags(), '--import', 'tsx'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ENABLED: 'false',
      // Every load generator connects from 127.0.0.1: no per-address connection cap.
      MAX_CONNECTIONS_PER_IP: '0',
      REDIS_URL: '',
      REVIEW_WORKERS: 'false',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = (type: string) =>
    new Promise<any>((resolve, reject) => {
      const onMsg = (m: any) => {
        if (m?.type === type) {
          child.off('message', onMsg);
          child.off('exit', onExit);
          resolve(m);
        }
      };
      const onExit = (code: number) => reject(new Error(`bench server exited with ${code}`));
      child.on('message', onMsg);
      child.once('exit', onExit);
    });
  // A server that never becomes ready is stopped, not left running behind the benchmark.
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const ready = await next('ready').finally(() => clearTimeout(timer));
  return {
    url: ready.url,
    child,
    async reset() {
      const p = next('reset');
      child.send({ type: 'reset' });
      await p;
    },
    async probe() {
      const p = next('probe');
      child.send({ type: 'probe' });
      return p;
    },
    async profileStart() {
      const p = next('profile:start');
      child.send({ type: 'profile:start' });
      await p;
    },
    async profileStop(file: string) {
      const p = next('profile:stop');
      child.send({ type: 'profile:stop', file });
      await p;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await done;
    },
  };
}
