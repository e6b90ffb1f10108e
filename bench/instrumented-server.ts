/**
 * The real server (startServer, same configuration from the environment) with a probe for the
 * benchmarks: over IPC it answers the event-loop delay (max since the last reset) and the
 * process's CPU time. Used by bench/growth-events.ts and bench/long-poll.ts.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../src/core/config.js';
import { startServer } from '../src/server.js';

const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
const server = await startServer(loadConfig(process.env));
process.send?.({ type: 'ready', url: server.url });
process.on('message', (msg: { type: string }) => {
  if (msg.type === 'reset') {
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
    });
  }
});
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
