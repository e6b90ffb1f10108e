import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { Db } from '../core/db/index.js';
import { AppError, validationError } from '../core/errors.js';
import { answeredByDeadline } from '../core/http/request-deadline.js';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER, isStoredOutcome, isValidIdempotencyKey, requestFingerprint } from './idempotency-key.js';
import { createIdempotencyRepo, type IdempotencyScope } from './idempotency-repo.js';

/** Headers of the first answer that a replay repeats (the rest, e.g. rate-limit headers, are the retry's own). */
const REPLAYED_HEADERS = ['content-type', 'location'] as const;
/** The purge runs on the claim path at most this often per process (unless behind), deleting at most PURGE_BATCH rows. */
const PURGE_EVERY_MS = 60_000;
const PURGE_BATCH = 500;
/** Rounds of insert / read / take over before giving up on a key that keeps changing hands. */
const CLAIM_ATTEMPTS = 3;

interface Claim {
  scope: IdempotencyScope;
  token: string;
}

/**
 * Idempotency keys with Stripe's semantics, for routes declared with `config: { idempotent: true }`.
 * The hooks are attached to those routes only (onRoute), so every other route pays nothing; on a
 * flagged route a request without the header pays one property read.
 *
 * A claim is a row inserted as "running" after the request passed authentication and validation;
 * the primary key (user, route, key) makes exactly one of several concurrent requests run. Its answer
 * is stored before it is sent, then replayed for retries with the same fingerprint.
 */
export function installIdempotency(app: FastifyInstance, deps: { db: Db; clock: Clock; ttlMs: number; leaseMs: number }): void {
  const { clock, ttlMs, leaseMs } = deps;
  const repo = createIdempotencyRepo(deps.db);
  const claims = new WeakMap<FastifyRequest, Claim>();
  let lastPurge = -Infinity;

  /** Expired rows are ignored when read; this only reclaims their space, so a failure is logged, not fatal. */
  async function purgeIfDue(request: FastifyRequest, nowMs: number, now: string): Promise<void> {
    if (nowMs - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = nowMs;
    try {
      // A full batch means more are waiting: the next claim purges again instead of a minute later.
      if ((await repo.purgeExpired(now, PURGE_BATCH)) === PURGE_BATCH) lastPurge = -Infinity;
    } catch (err) {
      request.log.warn({ err }, 'could not purge expired idempotency keys');
    }
  }

  /** Runs the claim protocol; true when the request was answered here (a replay). */
  async function claimOrReplay(request: FastifyRequest, reply: FastifyReply, key: string): Promise<boolean> {
    const principal = request.principal;
    if (!principal) throw new Error('idempotent route without config.auth');
    const scope: IdempotencyScope = { userId: principal.userId, route: `${request.method} ${request.routeOptions.url}`, key };
    const fingerprint = requestFingerprint(request.method, request.routeOptions.url!, request.params, request.body);
    const nowMs = clock.now().getTime();
    const now = new Date(nowMs).toISOString();
    await purgeIfDue(request, nowMs, now);
    const claim = {
      fingerprint,
      token: randomBytes(12).toString('base64url'),
      lockedUntil: new Date(nowMs + leaseMs).toISOString(),
      expiresAt: new Date(nowMs + ttlMs).toISOString(),
      now,
    };
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      if (await repo.insertClaim(scope, claim)) {
        claims.set(request, { scope, token: claim.token });
        return false;
      }
      const row = await repo.find(scope);
      if (!row) continue; // released meanwhile: insert again
      if (row.expires_at <= now) {
        // Past its retention: the key starts a new life, whatever it was used for before.
        if (await repo.takeOver(scope, row.lock_token, claim)) {
          claims.set(request, { scope, token: claim.token });
          return false;
        }
        continue;
      }
      if (row.fingerprint !== fingerprint) {
        throw new AppError(
          'idempotency_key_reused',
          `This Idempotency-Key was already used with another request to ${scope.route} (different path or body). Use a new key for a new request.`,
        );
      }
      if (row.state === 'done') {
        const headers = JSON.parse(row.response_headers ?? '{}') as Record<string, string>;
        reply.code(row.response_status!).headers(headers).header(REPLAYED_HEADER, 'true');
        reply.send(row.response_body ?? '');
        return true;
      }
      if (row.locked_until > now) {
        reply.header('Retry-After', 1);
        throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is still running; retry in a moment to get its answer.');
      }
      // Running past its lease: the process that claimed it died. This retry runs it.
      if (await repo.takeOver(scope, row.lock_token, claim)) {
        claims.set(request, { scope, token: claim.token });
        return false;
      }
    }
    reply.header('Retry-After', 1);
    throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is still running; retry in a moment to get its answer.');
  }

  const preHandler: preHandlerHookHandler = function idempotencyPreHandler(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
    const key = request.headers[IDEMPOTENCY_HEADER];
    if (key === undefined) return done();
    if (typeof key !== 'string' || !isValidIdempotencyKey(key)) {
      return done(validationError([{ field: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' }]));
    }
    claimOrReplay(request, reply, key).then((answered) => {
      // A replay has been sent: the handler must not run.
      if (!answered) done();
    }, done);
  };

  /** Stores a keepable answer before it leaves, or frees the key; either way, once per claim. */
  const onSend: onSendHookHandler<unknown> = function (request, reply, payload, done) {
    const claim = claims.get(request);
    if (!claim) return done(null, payload);
    claims.delete(request);
    // Answered 503 by the request deadline while its work may still run (and commit): the key stays
    // claimed until its lease ends, and the answer leaves without waiting on the database.
    if (answeredByDeadline(request)) return done(null, payload);
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    const keep = body !== null && isStoredOutcome(reply.statusCode);
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const write = keep ? repo.complete(claim.scope, claim.token, { status: reply.statusCode, headers, body }) : repo.release(claim.scope, claim.token);
    write.then(
      () => done(null, payload),
      (err: unknown) => {
        // The answer itself is fine: send it. The claim stays running until its lease ends.
        request.log.error({ err }, 'could not store the idempotent answer');
        done(null, payload);
      },
    );
  };

  /** Safety net: a claim whose answer never went through onSend (e.g. a failed send) is freed. */
  function onResponse(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const claim = claims.get(request);
    if (!claim) return done();
    claims.delete(request);
    repo.release(claim.scope, claim.token).then(
      () => done(),
      (err: unknown) => {
        request.log.error({ err }, 'could not release the idempotency key');
        done();
      },
    );
  }

  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    if (!route.config.auth)
      throw new Error(`${[route.method].flat().join(',')} ${route.url}: idempotent routes need config.auth (keys are scoped to the caller)`);
    route.preHandler = [...toArray(route.preHandler), preHandler];
    route.onSend = [...toArray(route.onSend), onSend];
    route.onResponse = [...toArray(route.onResponse), onResponse];
  });
}

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
