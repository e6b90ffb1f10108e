import type { FastifyBaseLogger } from 'fastify';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/**
 * The database outage as the request path logs it: an expected condition, not a bug. The first
 * request that fails on it logs one `warn` line; the next ones during the same outage log at
 * `debug` only (each still has its `request completed` line with status 503 and its id); the first
 * query that answers afterwards ends the outage with one `info` line saying how long it lasted and
 * how many requests it failed. One state per app (process), for the one component: the database.
 *
 * The background loops keep their own outage lines; this is the request path's.
 */
export interface RequestOutageLog {
  /** A request is answered 503 `database_unavailable`; `reason` is the cause's message. */
  failed(log: FastifyBaseLogger, reason: string): void;
  /** A query answered: if an outage was on, it is over. */
  answered(): void;
  /** Whether an outage is on (since its first failed request, until a query answers). */
  readonly down: boolean;
}

export function createRequestOutageLog(log: () => FastifyBaseLogger, now: () => number = Date.now): RequestOutageLog {
  let since: number | null = null;
  let failures = 0;
  return {
    failed(requestLog, reason) {
      if (since === null) {
        since = now();
        failures = 1;
        requestLog.warn(
          { component: 'database', reason },
          'database unavailable: requests answer 503 database_unavailable until it answers again (further failures are logged at debug)',
        );
        return;
      }
      failures++;
      requestLog.debug({ component: 'database', reason }, 'request failed: database unavailable');
    },
    answered() {
      if (since === null) return;
      const outageMs = now() - since;
      const failedRequests = failures;
      since = null;
      failures = 0;
      log().info({ component: 'database', outage_ms: outageMs, failed_requests: failedRequests }, 'database available again');
    },
    get down() {
      return since !== null;
    },
  };
}

/** A Kysely plugin that tells the outage log each time a query answers (one call per query). */
export function outageRecoveryPlugin(outage: RequestOutageLog): KyselyPlugin {
  return {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      return args.node;
    },
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      outage.answered();
      return args.result;
    },
  };
}
