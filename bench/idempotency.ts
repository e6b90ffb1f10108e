/**
 * What an Idempotency-Key costs on a write: `POST /events/:id/submit` (a real project update each
 * time) without the header, with a fresh key per request (claim insert + answer update), and as a
 * replay of one key (no handler run). In-process app, autocannon in the same process: compare the
 * rows with each other, not with bench/http.ts.
 *
 *   BENCH_DIALECTS=sqlite BENCH_SECONDS=3 node --import tsx bench/idempotency.ts
 */
import { randomBytes } from 'node:crypto';
import type autocannon from 'autocannon';
import { CONNECTIONS, DIALECTS, runMirrored, SECONDS, startSubmitBench } from './submit-bench.js';

async function run(dialect: 'sqlite' | 'postgres'): Promise<void> {
  const bench = await startSubmitBench(dialect, 'idem', 'Idempotency bench.');
  const { url, path, body, headers } = bench;
  const replayKey = `replay-${randomBytes(8).toString('hex')}`;
  await fetch(url + path, { method: 'POST', headers: { ...headers, 'idempotency-key': replayKey }, body });

  const scenarios: Array<[string, (() => Record<string, string>) | null]> = [
    ['no header', null],
    ['fresh key each request', () => ({ ...headers, 'idempotency-key': randomBytes(12).toString('hex') })],
    ['replay of one key', () => ({ ...headers, 'idempotency-key': replayKey })],
  ];
  const rows = async () =>
    (
      await bench.handle.db
        .selectFrom('idempotency_keys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  await runMirrored(
    `${dialect}: POST /events/:id/submit, ${CONNECTIONS} connections, ${SECONDS} s per run, 2 runs each`,
    scenarios,
    (makeHeaders) =>
      ({
        url: url + path,
        method: 'POST',
        connections: CONNECTIONS,
        duration: SECONDS,
        headers,
        body,
        ...(makeHeaders
          ? { requests: [{ method: 'POST', path, body, setupRequest: (req: Record<string, unknown>) => ({ ...req, headers: makeHeaders() }) }] }
          : {}),
      }) as autocannon.Options,
  );
  console.log(`  (idempotency rows at the end: ${await rows()})`);
  await bench.close();
}

for (const dialect of DIALECTS) await run(dialect);
