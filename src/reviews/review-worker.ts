import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../core/clock.js';
import type { AiConfig } from '../core/config.js';
import type { DatabaseHandle, Db } from '../core/db/index.js';
import type { ReviewRow } from '../core/db/schema.js';
import { isDatabaseUnavailable } from '../core/db/index.js';
import { createJobWorker, nextAttemptAt, type JobContext } from '../core/job-queue.js';
import { errorGist, type LoopLog } from '../core/outage-log.js';
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
import { backoffDelayMs, reviewRetryPolicy } from './retry-policy.js';

/** The subset of pino's logger the workers use. */
export type ReviewLog = LoopLog;

export interface ReviewWorkerDeps {
  db: Db;
  dialect: DatabaseHandle['dialect'];
  clock: Clock;
  ai: AiConfig;
  providers: ProviderRegistry;
  github: GithubContextFetcher;
  log: () => ReviewLog;
  random?: () => number;
  /** The scheduler's work before each poll's claim (reviews-service.ts: start judging where due, fail unconfigured reviews). */
  beforePoll?: () => Promise<void>;
  /** After each poll (never throws): the build-window checks' nudge. */
  afterPoll?: () => void;
}

/** Kept in reviews.raw_reply: enough to audit a reply, bounded so junk cannot bloat the table. */
const RAW_REPLY_MAX = 64 * 1024;

/** Waits between tries of a review's final write while the database is unavailable (doubling, with jitter). */
const WRITE_RETRY_BASE_MS = 200;
const WRITE_RETRY_MAX_MS = 5000;

/**
 * The review workers of one process, a configuration of the core job queue (core/job-queue.ts:
 * claim, lease tokens, heartbeat, surplus hand-back, loop): per configured provider a lane of at most
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
  const leaseUntil = () => iso(clock.now().getTime() + ai.leaseMs);
  const policy = reviewRetryPolicy({ baseMs: ai.backoffBaseMs, maxMs: ai.backoffMaxMs, maxAttempts: ai.maxAttempts });

  const worker = createJobWorker<ReviewRow>({
    component: 'review queue',
    log: deps.log,
    pollMs: ai.pollMs,
    concurrency: ai.concurrencyPerProvider,
    lanes: () => providers.names(),
    claim: ({ lane, owner, limit, takeOver }) =>
      repo.claimReviews(db, dialect, { provider: lane, owner, now: iso(clock.now()), leaseUntil: leaseUntil(), limit, takeOver }),
    run: (job, ctx) => runJob(job, ctx),
    crashed: async (job, err, ctx) => {
      // Unexpected (a database error, a bug). Count it as a failed attempt if the database lets us;
      // otherwise the lease, no longer renewed, expires and another worker retries the review.
      worker.failed(err, 'review job crashed', { review: job.id });
      const now = clock.now();
      const error = `internal error: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500);
      const facts = { latency_ms: null, input_tokens: null, output_tokens: null, raw_reply: null };
      const lease = { id: job.id, owner: ctx.owner, now: iso(now), ...facts };
      await (
        job.attempts < ai.maxAttempts
          ? repo.scheduleRetry(db, { ...lease, nextAttemptAt: iso(now.getTime() + ai.backoffBaseMs), error })
          : repo.finishFailed(db, { ...lease, error: `gave up after ${job.attempts} attempts: ${error}` })
      ).catch(() => undefined);
      await repo.markReviewedIfDone(db, { projectId: job.project_id }).catch(() => undefined);
    },
    release: (ids, owner) => repo.releaseLeases(db, { ids, owner, now: iso(clock.now()) }),
    // Renew well before expiry; one statement renews the leases of every review in progress here.
    renew: { intervalMs: Math.max(250, Math.floor(ai.leaseMs / 3)), run: (owners, ids) => repo.renewLeases(db, owners, ids, leaseUntil()) },
    ...(deps.beforePoll ? { beforePoll: deps.beforePoll } : {}),
    ...(deps.afterPoll ? { afterPoll: deps.afterPoll } : {}),
  });

  async function runJob(job: ReviewRow, lease: JobContext): Promise<void> {
    // Every write of this attempt is conditional on the lease it was claimed under.
    const base = { id: job.id, owner: lease.owner };
    const closing = lease.signal;
    const persistent = <T>(review: string, write: () => Promise<T>) => persistentWrite(review, write, closing);
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

    // Aborted when the worker closes (also when leased by a pass that raced with close()): the review is handed back.
    const ac = { signal: closing };
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
    const next = outcome.retryable ? nextAttemptAt(policy, job.attempts, { nowMs: now.getTime(), retryAfterMs: outcome.retryAfterMs, random }) : null;
    if (next !== null) {
      const error = outcome.error;
      await persist(() => repo.scheduleRetry(db, { ...base, now: iso(now), nextAttemptAt: iso(next), error, ...facts }));
      return;
    }
    const reason = outcome.retryable ? `gave up after ${job.attempts} attempts: ${outcome.error}` : outcome.error;
    await fail(reason, facts, now);
  }

  /**
   * Runs one of an attempt's writes; while the database is unavailable, tries it again with backoff
   * (the job keeps its slot and its lease is still renewed by the heartbeat, so no other worker
   * redoes the review meanwhile). Gives up, by throwing, on any other error, or when the worker is
   * closing and one more try failed: then the lease expires and the review is done again.
   */
  async function persistentWrite<T>(review: string, write: () => Promise<T>, closing: AbortSignal): Promise<T> {
    for (let tries = 1; ; tries++) {
      try {
        const result = await write();
        if (tries > 1) deps.log().info({ review, tries }, 'review result written after the database came back');
        return result;
      } catch (err) {
        if (!isDatabaseUnavailable(err) || closing.aborted) throw err;
        if (tries === 1) deps.log().warn({ err: errorGist(err), review }, 'database unavailable: keeping the review result and retrying its write');
        const wait = backoffDelayMs(tries, { baseMs: WRITE_RETRY_BASE_MS, maxMs: WRITE_RETRY_MAX_MS, random });
        await sleep(wait, undefined, { signal: closing }).catch(() => undefined);
      }
    }
  }

  return {
    owner: worker.owner,
    start: worker.start,
    wake: worker.wake,
    /** One poll now (the before-poll work, then a claim that also takes over expired leases). */
    poll: worker.poll,
    pump: worker.pump,
    whenIdle: worker.whenIdle,
    /** Stops leasing, aborts calls in flight (their reviews go back to the queue) and waits for them. */
    close: worker.close,
    failed: worker.failed,
    /** How many reviews this process has leased so far (drain uses it to see progress). */
    claimedCount: worker.claimedCount,
    inFlight: worker.inFlight,
  };
}

export type ReviewWorker = ReturnType<typeof createReviewWorker>;
