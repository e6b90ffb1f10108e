/**
 * The real server (startServer, same configuration from the environment) with a probe for the
 * benchmarks: over IPC it answers the event-loop delay (max since the last reset), the
 * process's CPU time and the number of statements the app has run. Used by bench/growth-events.ts and bench/long-poll.ts.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../src/core/config.js';
import { startServer } from '../src/server.js';

const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
/** Statements the app ran (on PostgreSQL: round trips), for statements-per-request figures. */
let statements = 0;
/** BENCH_STATEMENTS_BY_TEXT=<file>: how often each statement ran, written there when the server stops. */
const byText = process.env.BENCH_STATEMENTS_BY_TEXT ? new Map<string, number>() : null;
const server = await startServer(loadConfig(process.env), {
  observeStatements: (sql) => {
    statements++;
    if (byText) byText.set(sql, (byText.get(sql) ?? 0) + 1);
  },
});
process.send?.({ type: 'ready', url: server.url });
const inspector = new Session();
async function onMessage(msg: { type: string; file?: string }): Promise<void> {
  if (msg.type === 'profile:start') {
    // A CPU profile of a window of the run (BENCH_PROFILE=dir in the benchmarks that use it).
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.start');
    process.send?.({ type: 'profile:start' });
  } else if (msg.type === 'profile:stop') {
    const { profile } = await inspector.post('Profiler.stop');
    writeFileSync(msg.file!, JSON.stringify(profile));
    inspector.disconnect();
    process.send?.({ type: 'profile:stop' });
  } else if (msg.type === 'reset') {
    delay.reset();
    process.send?.({ type: 'reset' });
  } else if (msg.type === 'probe') {
    const cpu = process.cpuUsage();
    process.send?.({
      type: 'probe',
      loopMaxMs: delay.max / 1e6,
      loopP99Ms: delay.percentile(99) / 1e6,
      cpuMicros: cpu.user + cpu.system,
      rssMb: Math.round(process.memoryUsage().rss / 1048576),
      statements,
    });
  }
}

// A failed command ends the server process: the benchmark sees it exit rather than wait forever.
process.on('message', (msg: { type: string; file?: string }) => {
  onMessage(msg).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
});
process.on('SIGTERM', () => {
  if (byText) {
    const lines = [...byText].sort((a, b) => b[1] - a[1]).map(([sql, n]) => `${String(n).padStart(8)}  ${sql.slice(0, 240)}`);
    writeFileSync(process.env.BENCH_STATEMENTS_BY_TEXT!, lines.join('\n') + '\n');
  }
  void server.close().then(() => process.exit(0));
});
