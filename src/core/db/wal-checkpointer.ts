import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite copies the write-ahead log back into the database file (a checkpoint) inside the commit
 * that takes the log past 1,000 pages, and better-sqlite3 runs every call on the caller's thread:
 * on the server's event loop. A commit of a large transaction (publishing 50,000 entries, 16 MB)
 * then held the loop for about 30 ms more. This runs the checkpoints instead on a worker thread
 * with a connection of its own, every `intervalMs` while the log holds frames not yet copied, in
 * PASSIVE mode (it never waits for or blocks the server's readers and writer); the server's
 * connection then has automatic checkpoints off. Durability does not change: a commit is in the
 * log before it is answered either way.
 */

export interface CheckpointResult {
  /** Frames in the log, and how many of them are in the database file now. */
  log: number;
  checkpointed: number;
}

export interface WalCheckpointer {
  /** Checkpoints run so far (for operators' stats and tests). */
  runs(): number;
  /** Resolves with the next checkpoint's result. */
  next(): Promise<CheckpointResult>;
  stop(): Promise<void>;
}

// CommonJS, evaluated in the worker: the same code whether the server runs from dist/ or through tsx.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 1000');
let timer = setInterval(() => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    if (row.log > 0) parentPort.postMessage({ log: row.log, checkpointed: row.checkpointed });
  } catch (err) {
    // Busy (another checkpoint under way) or a transient error: the next tick tries again.
  }
}, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
`;

export function startWalCheckpointer(path: string, opts: { intervalMs: number; onFailure: (err: unknown) => void }): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, driver, intervalMs: opts.intervalMs } });
  // The server must not wait for this thread to exit.
  worker.unref();
  let count = 0;
  let stopping = false;
  let waiters: Array<(r: CheckpointResult) => void> = [];
  worker.on('message', (r: CheckpointResult) => {
    count++;
    const ready = waiters;
    waiters = [];
    for (const w of ready) w(r);
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', (err) => {
    if (!stopping) opts.onFailure(err);
  });
  void exited.then(() => {
    if (!stopping) opts.onFailure(new Error('the WAL checkpoint thread exited'));
  });
  return {
    runs: () => count,
    next: () => new Promise((resolve) => waiters.push(resolve)),
    async stop() {
      if (stopping) return exited;
      stopping = true;
      worker.postMessage('stop');
      await exited;
    },
  };
}
