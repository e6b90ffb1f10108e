import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './process.js';

/**
 * A redis-server of the test's own, on a free port, that the test may stop and start again on the
 * same port (the shared Redis on 6379 must never be stopped). No persistence: a restart is empty.
 */
export interface TestRedis {
  port: number;
  url: string;
  /** Stops the server (SIGKILL: its clients see the connection drop at once) and waits for its exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port; resolves once it accepts connections. */
  start(): Promise<void>;
  running(): boolean;
  /** Freezes the server (SIGSTOP): connections stay open and commands get no answer, as in a network partition. */
  pause(): void;
  /** Lets a paused server run again (SIGCONT). */
  resume(): void;
}

export async function startTestRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;

  async function start(): Promise<void> {
    if (child) throw new Error('redis-server is already running');
    const c = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = c;
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (d: Buffer) => {
        out += String(d);
        if (out.includes('Ready to accept connections')) {
          c.stdout.off('data', onData);
          resolve();
        }
      };
      c.stdout.on('data', onData);
      c.stderr.on('data', (d) => (out += String(d)));
      c.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready: ${out}`)));
      c.once('error', reject);
    });
    // Drain its output from now on, so a full pipe never blocks it.
    c.stdout.resume();
  }

  async function stop(): Promise<void> {
    const c = child;
    if (!c) return;
    child = null;
    if (c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    c.kill('SIGKILL');
    await exited;
  }

  await start();
  const signal = (sig: NodeJS.Signals) => {
    if (!child) throw new Error('redis-server is not running');
    child.kill(sig);
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    running: () => child !== null,
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
  };
}
