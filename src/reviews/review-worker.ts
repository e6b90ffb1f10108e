import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../core/clock.js';
import type { AiConfig } from '../core/config.js';
import type { DatabaseHandle, Db } from '../core/db/index.js';
import type { ReviewRow } from '../core/db/schema.js';
import { isDatabaseUnavailable } from '../core/db/index.js';
import { iso } from '../core/time.js';
import type { Dimension, Track } from '../events/event-config.js';
import { effectiveStatus } from '../events/status.js';
import type { GithubContextFetcher } from './github-context.js';
import { fromSdkError, splitModelId, type ProviderRegistry } from './providers/index.js';
import { clip } from './providers/provider.js';
import { createInjectionClassifier } from './injection-classifier.js';
import { screenSubmission } from './injection-screen.js';
import { recordFlags } from './project-flags-repo.js';
import { buildReviewPrompt } from './review-prompt.js';
import { checkReviewReply, reviewReplySchema } from './review-reply.js';
import * as repo from './reviews-repo.js';
import { backoffDelayMs } from './retry-policy.js';

/** The subset of pino's logger the workers use. */
export interface ReviewLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ReviewWorkerDeps {
  db: Db;
  dialect: DatabaseHandle['dialect'];
  clock: Clock;
  ai: AiConfig;
  providers: ProviderRegistry;
  github: GithubContextFetcher;
  log: () => ReviewLog;
  random?: () => number;
}

/** Kept in reviews.raw_reply: enough to audit a reply, bounded so junk cannot bloat the table. */
const RAW_REPLY_MAX = 64 * 1024;

/** Waits between tries of a review's final write while the database is unavailable (doubling, with jitter). */
const WRITE_RETRY_BASE_MS = 200;
const WRITE_RETRY_MAX_MS = 5000;

interface Lane {
  active: number;
}

/**
 * The review workers of one process: per configured provider a lane of at most
 * REVIEW_CONCURRENCY reviews in flight. `pump()` fills free slots by leasing due reviews from the
 * database; every finished review pumps again, so a lane stays full while work is due. The lane's
 * limit is kept here, not only by the claim's LIMIT: a claim that ever returned more rows than the
 * lane has room for hands the surplus straight back, so this process never has more than
 * REVIEW_CONCURRENCY calls to one provider in flight (and a killed process strands at most that
 * many leases per provider).
 *
 * A model's answer is not lost to a database outage: the attempt's final write (scores, retry or
 * failure) is tried again with backoff, while the heartbeat keeps renewing the lease, until the
 * database takes it or says the lease is no longer this attempt's. Only when the process stops (or
 * dies) first does the review wait for its lease to expire and get asked again.
 *
 * Time: every stored instant (lease expiry, next_attempt_at, completed_at) comes from the injected
 * clock, so a test's ManualClock decides what is due. Only the model call's own timeout
 * (REVIEW_TIMEOUT_MS) and the lease heartbeat are real timers: they measure real waiting.
 */
export function createReviewWorker(deps: ReviewWorkerDeps) {
  const { db, dialect, clock, ai, providers, github } = deps;
  const random = deps.random ?? Math.random;
  const classifier = createInjectionClassifier({ setting: ai.classifier, providers, timeoutMs: ai.timeoutMs, log: deps.log, now: () => clock.now() });
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  /**
   * Every claim statement leases under a token of its own (this worker's id plus a counter), not
   * under the bare worker id: if a lease expires while its call is still in flight and this same
   * process claims the review again, the stale attempt's writes no longer match the row's owner.
   */
  let claims = 0;
  const claimToken = () => `${owner}#${(++claims).toString(36)}`;
  const lanes = new Map<string, Lane>();
  const inflight = new Set<Promise<void>>();
  /** Reviews this process is working on, with the lease token of the attempt that holds each: only those leases are renewed. */
  const working = new Map<string, string>();
  const controllers = new Set<AbortController>();
  /** Aborted by close(): cuts short the waits between write retries. */
  const closing = new AbortController();
  let closed = false;
  let pumping: Promise<void> | null = null;
  let pumpAgain = false;
  let refilling: Promise<void> | null = null;
  let wantTakeOver = false;
  let claimed = 0;
  let heartbeat: NodeJS.Timeout | null = null;

  const lane = (name: string): Lane => {
    let l = lanes.get(name);
    if (!l) lanes.set(name, (l = { active: 0 }));
    return l;
  };
  const leaseUntil = () => iso(clock.now().getTime() + ai.leaseMs);

  function startHeartbeat() {
    if (heartbeat) return;
    // Renew well before expiry; one statement renews the leases of every review in progress here.
    heartbeat = setInterval(
      () => {
        repo
          .renewLeases(db, [...new Set(working.values())], [...working.keys()], leaseUntil())
          .catch((err: unknown) => deps.log().warn({ err }, 'review lease renewal failed'));
      },
      Math.max(250, Math.floor(ai.leaseMs / 3)),
    );
    heartbeat.unref();
  }
  function stopHeartbeatIfIdle() {
    if (heartbeat && inflight.size === 0) {
      clearInterval(heartbeat);
      heartbeat = null;
    }
  }

  /**
   * Fills every provider's free slots with due reviews. Concurrent calls coalesce into one pass.
   * `takeOver` also looks for expired leases (the poll does; a refill after a finished review only
   * needs queued reviews, which keeps the hot path to one claim statement).
   */
  function pump(opts: { takeOver?: boolean } = {}): Promise<void> {
    if (closed) return Promise.resolve();
    if (opts.takeOver) wantTakeOver = true;
    if (pumping) {
      pumpAgain = true;
      return pumping;
    }
    const pass = (async () => {
      do {
        pumpAgain = false;
        const takeOver = wantTakeOver;
        wantTakeOver = false;
        for (const name of providers.names()) {
          if (closed) return;
          const l = lane(name);
          const free = ai.concurrencyPerProvider - l.active;
          if (free <= 0) continue;
          const now = iso(clock.now());
          const owner = claimToken();
          const jobs = await repo.claimReviews(db, dialect, { provider: name, owner, now, leaseUntil: leaseUntil(), limit: free, takeOver });
          const surplus: string[] = [];
          for (const job of jobs) {
            if (l.active < ai.concurrencyPerProvider) launch(l, job);
            else surplus.push(job.id);
          }
          if (surplus.length > 0) {
            // The claim's LIMIT should make this unreachable; the lane's limit must hold regardless.
            deps
              .log()
              .warn(
                { provider: name, limit: ai.concurrencyPerProvider, surplus: surplus.length },
                'a review claim returned more reviews than the lane has room for; handing them back',
              );
            await repo
              .releaseLeases(db, { ids: surplus, owner, now: iso(clock.now()) })
              .catch((err: unknown) => deps.log().warn({ err }, 'handing back surplus reviews failed; their leases will expire'));
          }
        }
      } while (pumpAgain && !closed);
    })();
    // Cleared in a callback, never inside the pass: a pass that finishes without awaiting (every lane
    // full) would otherwise clear `pumping` before it was even assigned, and stick.
    pumping = pass;
    const clear = () => {
      if (pumping === pass) pumping = null;
    };
    pass.then(clear, clear);
    return pumping;
  }

  /**
   * Refills freed slots on the next turn of the event loop, so reviews finishing together (answers
   * arriving in one batch) share one claim statement instead of one each.
   */
  function refill() {
    if (refilling) return;
    refilling = new Promise<void>((resolve) => {
      setImmediate(() => {
        refilling = null;
        pump()
          .catch((err: unknown) => deps.log().error({ err }, 'review pump failed'))
          .finally(resolve);
      });
    });
  }

  function launch(l: Lane, job: ReviewRow) {
    const lease = job.lease_owner!;
    l.active++;
    claimed++;
    working.set(job.id, lease);
    // Only this attempt's own entry is dropped: a newer claim of the same review keeps its lease renewed.
    const forget = () => {
      if (working.get(job.id) === lease) working.delete(job.id);
    };
    startHeartbeat();
    const p: Promise<void> = runJob(job)
      .catch(async (err: unknown) => {
        // Unexpected (a database error, a bug). Count it as a failed attempt if the database lets us;
        // otherwise the lease, no longer renewed, expires and another worker retries the review.
        deps.log().error({ err, review: job.id }, 'review job crashed');
        forget();
        const now = clock.now();
        const error = `internal error: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500);
        const facts = { latency_ms: null, input_tokens: null, output_tokens: null, raw_reply: null };
        await (
          job.attempts < ai.maxAttempts
            ? repo.scheduleRetry(db, { id: job.id, owner: lease, now: iso(now), nextAttemptAt: iso(now.getTime() + ai.backoffBaseMs), error, ...facts })
            : repo.finishFailed(db, { id: job.id, owner: lease, now: iso(now), error: `gave up after ${job.attempts} attempts: ${error}`, ...facts })
        ).catch(() => undefined);
        await repo.markReviewedIfDone(db, { projectId: job.project_id }).catch(() => undefined);
      })
      .finally(() => {
        forget();
        l.active--;
        inflight.delete(p);
        stopHeartbeatIfIdle();
        if (!closed) refill();
      });
    inflight.add(p);
  }

  async function runJob(job: ReviewRow): Promise<void> {
    // Every write of this attempt is conditional on the lease it was claimed under.
    const base = { id: job.id, owner: job.lease_owner! };
    const noFacts: repo.AttemptFacts = { latency_ms: null, input_tokens: null, output_tokens: null, raw_reply: null };
    const persist = <T>(write: () => Promise<T>) => persistent(job.id, write);
    const fail = async (error: string, facts = noFacts, at = clock.now()) => {
      if (await persist(() => repo.finishFailed(db, { ...base, now: iso(at), error, ...facts }))) {
        await persist(() => repo.markReviewedIfDone(db, { projectId: job.project_id }));
      }
    };

    // A lease that expired on the last attempt: the worker died or hung mid-call. Do not go beyond
    // the attempt budget, even for that.
    if (job.attempts > ai.maxAttempts) {
      return fail(
        `gave up after ${ai.maxAttempts} attempts: the last attempt's worker stopped before answering (lease expired)` +
          (job.last_error ? `; earlier: ${job.last_error}` : ''),
      );
    }
    const ctx = await repo.loadJob(db, job.id);
    if (!ctx) return; // the project or event was deleted meanwhile
    const status = effectiveStatus({ ...ctx, status: ctx.event_status }, clock.now());
    if (status === 'cancelled' || status === 'ended') {
      return fail(`not reviewed: the event is ${status}`);
    }
    if (ctx.review_status === 'pending') await repo.markProjectInReview(db, job.project_id);

    const { provider: providerName, model } = splitModelId(job.reviewer);
    const provider = providers.get(providerName);
    if (!provider) return fail(`provider "${providerName}" is not configured`); // claimed by lane, so unreachable

    const ac = new AbortController();
    controllers.add(ac);
    if (closed) ac.abort(); // leased by a pass that raced with close(): hand it straight back
    try {
      const dimensions = JSON.parse(ctx.dimensions) as Dimension[];
      const repoCtx = ac.signal.aborted ? null : await github.fetch(ctx.github_url, ac.signal).catch(() => null);
      if (ac.signal.aborted) return void (await repo.releaseLease(db, { ...base, now: iso(clock.now()) }));
      // Screening: passages addressed to the evaluator are cut from what the model sees and kept
      // as flags for the organizers (the project is still reviewed). The patterns first, then, when
      // INJECTION_CLASSIFIER is on, one of the event's models on what they left (never failing the review).
      const patterned = screenSubmission(ctx, repoCtx);
      const classified = await classifier.screen({
        screened: patterned,
        eventModels: JSON.parse(ctx.models) as string[],
        signal: ac.signal,
        review: job.id,
      });
      if (ac.signal.aborted) return void (await repo.releaseLease(db, { ...base, now: iso(clock.now()) }));
      const screened = { project: classified.project, repo: classified.repo, flags: [...patterned.flags, ...classified.flags] };
      await recordFlags(db, { eventId: job.event_id, projectId: job.project_id, flags: screened.flags, now: iso(clock.now()) });
      const prompt = buildReviewPrompt({
        event: { name: ctx.event_name, description: ctx.event_description, tracks: JSON.parse(ctx.tracks) as Track[], dimensions },
        project: screened.project,
        repo: screened.repo,
        fence: randomBytes(8).toString('hex'),
      });

      const timeout = AbortSignal.timeout(ai.timeoutMs);
      const signal = AbortSignal.any([timeout, ac.signal]);
      const started = performance.now();
      let outcome:
        { ok: true; scores: Record<string, number>; summary: string } | { ok: false; error: string; retryable: boolean; retryAfterMs?: number | undefined };
      let facts = noFacts;
      try {
        const reply = await provider.review({ model, system: prompt.system, user: prompt.user, schema: reviewReplySchema(dimensions), signal });
        facts = {
          latency_ms: Math.round(performance.now() - started),
          input_tokens: reply.inputTokens,
          output_tokens: reply.outputTokens,
          raw_reply: reply.raw.length > RAW_REPLY_MAX ? reply.raw.slice(0, RAW_REPLY_MAX) : reply.raw,
        };
        const checked =
          reply.refusal !== undefined
            ? { ok: false as const, reason: `invalid reply: the model refused (${clip(reply.refusal, 200)})` }
            : checkReviewReply(reply.reply, dimensions);
        outcome = checked.ok ? { ok: true, ...checked.value } : { ok: false, error: checked.reason, retryable: true };
      } catch (err) {
        if (ac.signal.aborted && !timeout.aborted) {
          // Shutting down: hand the review back for another worker, the attempt does not count.
          await repo.releaseLease(db, { ...base, now: iso(clock.now()) });
          return;
        }
        facts = { ...noFacts, latency_ms: Math.round(performance.now() - started) };
        if (timeout.aborted) outcome = { ok: false, error: `timed out after ${ai.timeoutMs} ms`, retryable: true };
        else {
          const e = fromSdkError(err, clock.now());
          outcome = { ok: false, error: e.message, retryable: e.retryable, retryAfterMs: e.retryAfterMs };
        }
      }

      // The answer is in hand: from here on, a database outage delays its write but does not lose it.
      const now = clock.now();
      if (outcome.ok) {
        const { scores, summary } = outcome;
        if (await persist(() => repo.finishSucceeded(db, { ...base, now: iso(now), scores, summary, ...facts }))) {
          await persist(() => repo.markReviewedIfDone(db, { projectId: job.project_id }));
        }
        return;
      }
      if (outcome.retryable && job.attempts < ai.maxAttempts) {
        const delay = backoffDelayMs(job.attempts, { baseMs: ai.backoffBaseMs, maxMs: ai.backoffMaxMs, retryAfterMs: outcome.retryAfterMs, random });
        const error = outcome.error;
        await persist(() => repo.scheduleRetry(db, { ...base, now: iso(now), nextAttemptAt: iso(now.getTime() + delay), error, ...facts }));
        return;
      }
      const reason = outcome.retryable ? `gave up after ${job.attempts} attempts: ${outcome.error}` : outcome.error;
      await fail(reason, facts, now);
    } finally {
      controllers.delete(ac);
    }
  }

  /**
   * Runs one of an attempt's writes; while the database is unavailable, tries it again with backoff
   * (the job keeps its slot and its lease is still renewed by the heartbeat, so no other worker
   * redoes the review meanwhile). Gives up, by throwing, on any other error, or when the worker is
   * closing and one more try failed: then the lease expires and the review is done again.
   */
  async function persistent<T>(review: string, write: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      try {
        const result = await write();
        if (tries > 1) deps.log().info({ review, tries }, 'review result written after the database came back');
        return result;
      } catch (err) {
        if (!isDatabaseUnavailable(err) || closed) throw err;
        if (tries === 1) deps.log().warn({ err, review }, 'database unavailable: keeping the review result and retrying its write');
        const wait = backoffDelayMs(tries, { baseMs: WRITE_RETRY_BASE_MS, maxMs: WRITE_RETRY_MAX_MS, random });
        await sleep(wait, undefined, { signal: closing.signal }).catch(() => undefined);
      }
    }
  }

  /** Resolves once nothing is in flight and no pump is running. */
  async function whenIdle(): Promise<void> {
    while (inflight.size > 0 || pumping || refilling) {
      await Promise.allSettled([...inflight, ...(pumping ? [pumping] : []), ...(refilling ? [refilling] : [])]);
    }
  }

  /** Stops leasing, aborts calls in flight (their reviews go back to the queue) and waits for them. */
  async function close(): Promise<void> {
    closed = true;
    closing.abort();
    for (const ac of controllers) ac.abort(new Error('shutting down'));
    await whenIdle();
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
  }

  return {
    owner,
    pump,
    whenIdle,
    close,
    /** How many reviews this process has leased so far (drain uses it to see progress). */
    claimedCount: () => claimed,
    inFlight: () => inflight.size,
  };
}

export type ReviewWorker = ReturnType<typeof createReviewWorker>;
