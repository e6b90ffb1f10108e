/**
 * Webhooks: what queueing deliveries adds to a write, and delivery throughput to a local receiver.
 *
 * 1. `POST /events/:id/submit` (a real project update each time, which queues project.updated in
 *    the same transaction) with no subscription, with the team's one subscription, and with five
 *    (the team's and four of the organizer's). The delivery worker is off meanwhile.
 * 2. Then the worker of this process delivers everything queued to a receiver on 127.0.0.1
 *    answering 204: messages per second, from the first claim to the last delivered row.
 *
 *   BENCH_DIALECTS=sqlite BENCH_SECONDS=3 node --import tsx bench/webhooks.ts
 */
import { createServer } from 'node:http';
import { CONNECTIONS, DIALECTS, runMirrored, SECONDS, startSubmitBench } from './submit-bench.js';

async function run(dialect: 'sqlite' | 'postgres'): Promise<void> {
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const bench = await startSubmitBench(dialect, 'whk', 'Webhooks bench.', {
    WEBHOOKS_WORKERS: 'false',
    WEBHOOKS_ALLOW_LOOPBACK: 'true',
    WEBHOOKS_CONCURRENCY: process.env.BENCH_WEBHOOKS_CONCURRENCY ?? '16',
  });
  const { config, handle, ctx, url, call, orgKey, teamKey, path, body, headers } = bench;
  await fetch(url + path, { method: 'POST', headers, body });

  const subscribe = (key: string) => call('POST', '/api/v1/webhooks', key, { url: hookUrl, events: ['project.submitted', 'project.updated'] });
  // Earlier scenarios' subscriptions are disabled (not deleted), so their queued rows stay for the delivery run.
  const setSubscriptions = async (n: number) => {
    await handle.db.updateTable('webhooks').set({ disabled_at: new Date().toISOString() }).execute();
    if (n >= 1) await subscribe(teamKey);
    for (let i = 1; i < n; i++) await subscribe(orgKey);
  };
  const scenarios: Array<[string, number]> = [
    ['no subscription', 0],
    ['1 subscription', 1],
    ['5 subscriptions', 5],
  ];
  await runMirrored(`${dialect}: POST /events/:id/submit, ${CONNECTIONS} connections, ${SECONDS} s per run, 2 runs each`, scenarios, async (n) => {
    await setSubscriptions(n);
    return { url: url + path, method: 'POST', connections: CONNECTIONS, duration: SECONDS, headers, body };
  });

  // Delivery: every subscription enabled again, the worker delivers everything the writes queued.
  await handle.db.updateTable('webhooks').set({ disabled_at: null }).execute();
  const queued = async () =>
    Number(
      (
        await handle.db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '!=', 'delivered')
          .executeTakeFirstOrThrow()
      ).n,
    );
  const total = await queued();
  const started = performance.now();
  ctx.webhooks.start();
  while ((await queued()) > 0) await new Promise((r) => setTimeout(r, 100));
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `  delivery: ${total} messages to 127.0.0.1 in ${seconds.toFixed(2)} s = ${(total / seconds).toFixed(0)} msg/s (WEBHOOKS_CONCURRENCY ${config.webhooks.concurrency}, one process)`,
  );
  await bench.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
}

for (const dialect of DIALECTS) await run(dialect);
