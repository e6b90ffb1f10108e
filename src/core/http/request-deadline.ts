import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/index.js';
import { AppError } from '../errors.js';
import { effectiveWaitSeconds } from '../wait-policy.js';

/**
 * The request deadline (REQUEST_DEADLINE_MS): a request not answered that long after it arrived is
 * answered 503 `database_unavailable` with Retry-After. The database's limits are per query (a
 * connection, a statement, an answer), so a request of several queries against a frozen database
 * could take several of them; the deadline bounds the whole request.
 *
 * Not counted: receiving the body (bounded by REQUEST_TIMEOUT_MS), and a long-poll's wait: a request
 * with `?wait=N` gets N more seconds (as the wait policy caps it). The MCP endpoint hands its answer
 * to the MCP SDK (a hijacked reply) once authenticated; each tool's REST call has its own deadline.
 *
 * The work the deadline cut short goes on until its own query limits end it (it is not aborted).
 * Its late outcome is never sent: Fastify drops a second answer, and the lines it logs about that
 * (the reply already sent, or the database error that came too late) are logged at info, without
 * a stack, as `work of a request finished after its deadline`.
 */
interface Deadline {
  request: FastifyRequest;
  reply: FastifyReply;
  /** When the deadline passes (Date.now() ms); Infinity while paused (receiving the body). */
  endsAt: number;
  /** What is left while paused; null otherwise. */
  remainingMs: number | null;
  answered: boolean;
}

const deadlines = new WeakMap<FastifyRequest, Deadline>();

/** Whether the request was answered by its deadline (its work may still be running). */
export function answeredByDeadline(request: FastifyRequest): boolean {
  return deadlines.get(request)?.answered === true;
}

/** How often the requests in flight are looked at: the deadline holds to within this. */
const SWEEP_MS = 100;

export function installRequestDeadline(app: FastifyInstance, opts: { deadlineMs: number; maxWaitSeconds: number }): void {
  const { deadlineMs, maxWaitSeconds } = opts;
  /**
   * The requests in flight. One timer looks at them all every SWEEP_MS (never keeping the process
   * alive) instead of a timer per request: arming, pausing and clearing a deadline is then setting
   * a number, which keeps the deadline off the cost of a request.
   */
  const inFlight = new Set<Deadline>();
  let sweeper: NodeJS.Timeout | null = null;

  function sweep(): void {
    const now = Date.now();
    for (const d of inFlight) if (d.endsAt <= now) expire(d);
    if (inFlight.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = null;
    }
  }

  function arm(deadline: Deadline, ms: number): void {
    deadline.remainingMs = null;
    deadline.endsAt = Date.now() + ms;
  }

  function expire(deadline: Deadline): void {
    inFlight.delete(deadline);
    const { request, reply } = deadline;
    // Answered meanwhile, handed over (MCP), or an answer already streaming: nothing to do.
    if (reply.sent || reply.raw.headersSent) return;
    deadline.answered = true;
    const late = lateLogger(request.log);
    request.log = late;
    reply.log = late;
    reply.send(
      new AppError(
        'database_unavailable',
        `The request did not finish within the server's ${deadlineMs} ms deadline: its database did not answer in time. Retry after the Retry-After interval (a write with the same Idempotency-Key).`,
      ),
    );
  }

  app.addHook('onRequest', (request, reply, done) => {
    const deadline: Deadline = { request, reply, endsAt: Date.now() + deadlineMs, remainingMs: null, answered: false };
    deadlines.set(request, deadline);
    inFlight.add(deadline);
    if (!sweeper) {
      sweeper = setInterval(sweep, SWEEP_MS);
      // Never what keeps a process alive (an in-process request whose answer emits no 'close').
      sweeper.unref();
    }
    reply.raw.once('close', () => inFlight.delete(deadline));
    done();
  });
  // Receiving the body is the client's time, not the work's: the deadline pauses meanwhile.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const deadline = deadlines.get(request);
    if (deadline && deadline.remainingMs === null && !request.raw.complete) {
      deadline.remainingMs = Math.max(0, deadline.endsAt - Date.now());
      deadline.endsAt = Infinity;
    }
    done(null, payload);
  });
  app.addHook('preValidation', (request, reply, done) => {
    const deadline = deadlines.get(request);
    if (deadline?.remainingMs != null && !reply.sent) arm(deadline, deadline.remainingMs);
    done();
  });
  // Once an answer is on its way (its onSend hooks run, before the route's own, e.g. storing an
  // idempotent answer), the deadline is over: a second answer would collide with it.
  app.addHook('onSend', (request, _reply, payload, done) => {
    const deadline = deadlines.get(request);
    if (deadline) inFlight.delete(deadline);
    done(null, payload);
  });
  // A long-poll's wait is added to the deadline (the query is validated by now).
  app.addHook('preHandler', (request, reply, done) => {
    const wait = (request.query as { wait?: unknown } | undefined)?.wait;
    const deadline = deadlines.get(request);
    if (deadline && typeof wait === 'number' && wait > 0 && !reply.sent) {
      arm(deadline, Math.max(0, deadline.endsAt - Date.now()) + effectiveWaitSeconds(wait, maxWaitSeconds) * 1000);
    }
    done();
  });
}

/** What a request's work that ended after its deadline answered may log: expected, so at info without a stack. */
function isLateOutcome(obj: unknown): obj is { err: Error } {
  const err = (obj as { err?: unknown } | null)?.err;
  if (!(err instanceof Error)) return false;
  return (err as { code?: unknown }).code === 'FST_ERR_REP_ALREADY_SENT' || isDatabaseUnavailable(err) || (err instanceof AppError && err.status === 503);
}

/** The request's logger once its deadline has answered: the late outcome's lines drop to info. */
function lateLogger(log: FastifyBaseLogger): FastifyBaseLogger {
  const late = Object.create(log) as FastifyBaseLogger;
  const quiet =
    (method: 'warn' | 'error') =>
    (obj: unknown, ...rest: unknown[]): void => {
      if (isLateOutcome(obj)) {
        log.info({ reason: obj.err.message }, 'work of a request finished after its deadline had answered it');
        return;
      }
      Reflect.apply(log[method], log, [obj, ...rest]);
    };
  late.warn = quiet('warn');
  late.error = quiet('error');
  return late;
}
