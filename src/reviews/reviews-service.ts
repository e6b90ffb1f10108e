import { renderMarkdownCached } from '../core/markdown.js';
import { actorOf, recordAudit } from '../core/audit.js';
import type { Principal } from '../core/principal.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { DatabaseHandle, Db } from '../core/db/index.js';
import type { ReviewStatus } from '../core/db/schema.js';
import { AppError, validationError } from '../core/errors.js';
import { decodeCursor, encodeCursor, takePage } from '../core/http/pagination.js';
import { iso } from '../core/time.js';
import type { EventRecord } from '../events/events-model.js';
import type { EventsService } from '../events/events-service.js';
import { effectiveStatus } from '../events/status.js';
import { createBuildWindowJob, withDuplicateViews } from './build-window-job.js';
import { createGithubContextFetcher } from './github-context.js';
import { createProviderRegistry, notConfiguredReason, splitModelId } from './providers/index.js';
import { createReviewWorker, type ReviewLog } from './review-worker.js';
import { flagsOf, flagsOfProjects, setFlagStatus } from './project-flags-repo.js';
import * as repo from './reviews-repo.js';

export interface ReviewsServiceDeps {
  db: Db;
  dialect: DatabaseHandle['dialect'];
  clock: Clock;
  config: Config;
  events: EventsService;
  /** Read lazily: the app's logger exists only once Fastify is built. */
  log?: () => ReviewLog;
  /**
   * A project's score line from its reviews, with the leaderboard's arithmetic (the results
   * domain's; the wiring passes it in). Without it the review page's `standing` is empty.
   */
  scoreLine?: ScoreLineOf;
}

/** The review facts a score line is computed from. */
export interface ScoreFact {
  project_id: string;
  reviewer_kind: string;
  reviewer: string;
  group_key: string;
  status: string;
  scores: string | null;
}

export type ScoreLineOf = (
  event: EventRecord,
  project: { id: string; track_id: string | null; first_submitted_at: string },
  reviews: readonly ScoreFact[],
) => ScoreLine | Promise<ScoreLine>;
type ScoreLine = { score: number | null; scores_by_model: Record<string, number>; scores_by_dimension: Record<string, number> };

const silent: ReviewLog = { info() {}, warn() {}, error() {} };

/**
 * AI reviews: the judging scheduler (start reviews exactly once when an event enters judging), the
 * workers (review-worker.ts), and the organizer's view and re-run of reviews.
 *
 * Lifecycle: `start()` runs the loop in the background (buildApp does it when REVIEW_WORKERS is on):
 * every REVIEW_POLL_MS it starts judging where due, fails reviews of unconfigured providers, takes
 * over expired leases and fills the worker slots; a finished review refills its slot at once.
 * `stop()` ends it and hands unfinished reviews back to the queue (the app's onClose calls it).
 * `tick()`, `runOnce()` and `drain()` run the same code on demand, so tests can step it
 * deterministically with workers off.
 *
 * Time: whether a review is due (next_attempt_at) or its lease has expired is decided by the
 * injected clock. Under a test's ManualClock a retry scheduled in the future is not due until the
 * test advances the clock, so `drain()` returns with it still queued. Tests either set
 * REVIEW_BACKOFF_MS=0 (retries are due at once; a Retry-After header still sets a floor) or advance
 * the clock past next_attempt_at. Real time is only used for the model call's own timeout
 * (REVIEW_TIMEOUT_MS) and the lease heartbeat, both of which measure real waiting.
 */
export function createReviewsService(deps: ReviewsServiceDeps) {
  const { db, dialect, clock, config, events } = deps;
  const ai = config.ai;
  const log = deps.log ?? (() => silent);
  const providers = createProviderRegistry(ai);
  const github = createGithubContextFetcher(config.github);
  const buildWindow = createBuildWindowJob({ db, clock, github, log });
  // The scheduler is the review queue's loop (core/job-queue.ts): before each poll's claim it starts
  // judging where due and fails reviews of unconfigured providers. The build-window checks run on a
  // loop of their own (a slow or refusing GitHub never holds up reviews).
  const worker = createReviewWorker({
    db,
    dialect,
    clock,
    ai,
    providers,
    github,
    log,
    beforePoll: async () => {
      await scheduleDue();
      await failUnconfigured();
    },
  });

  let running = false;
  let stopped = false;

  /** Claims and queues one event's reviews if it is in judging and nobody did it yet. */
  async function startJudging(eventId: string): Promise<number | null> {
    const queued = await repo.startJudging(db, eventId, iso(clock.now()));
    if (queued !== null) log().info({ event: eventId, queued }, 'judging started: AI reviews queued');
    return queued;
  }

  /** Every event that entered judging (by deadline or by its organizer) and was not started yet. */
  async function scheduleDue(): Promise<number> {
    let total = 0;
    for (const id of await repo.findEventsDueForJudging(db, iso(clock.now()))) total += (await startJudging(id)) ?? 0;
    return total;
  }

  /**
   * Queued reviews of models whose provider this process has no configuration for fail at once,
   * with the variable to set in their reason. (Give every process the same provider configuration:
   * a process lacking one would fail reviews another could do.)
   */
  async function failUnconfigured(): Promise<number> {
    let n = 0;
    for (const model of await repo.queuedModels(db)) {
      const { provider } = splitModelId(model);
      if (providers.get(provider)) continue;
      const eventIds = await repo.failQueuedForModel(db, { model, reason: notConfiguredReason(provider), now: iso(clock.now()) });
      for (const eventId of eventIds) await repo.markReviewedIfDone(db, { eventId });
      n += eventIds.length;
      log().warn({ model }, notConfiguredReason(provider));
    }
    return n;
  }

  /** One pass: start due judging, fail unconfigured reviews, lease what is due. Does not wait. */
  async function tick(): Promise<void> {
    await worker.poll();
  }

  /** One pass, then waits for every review it (and the refills it triggered) leased. Returns how many. */
  async function runOnce(): Promise<number> {
    const before = worker.claimedCount();
    await tick();
    await worker.whenIdle();
    return worker.claimedCount() - before;
  }

  /** Runs until nothing is due any more (retries scheduled in the clock's future are not due). */
  async function drain(): Promise<void> {
    while ((await runOnce()) > 0) {
      /* keep going */
    }
  }

  function kickLoop() {
    worker.wake();
  }

  /** Runs the loop in the background: a poll every REVIEW_POLL_MS, at once after kickLoop(). */
  function start(): void {
    if (running || stopped) return;
    running = true;
    worker.start();
    buildWindow.start();
  }

  async function stop(): Promise<void> {
    stopped = true;
    await worker.close(); // stops leasing at once, aborts calls in flight, waits for the loop
    await buildWindow.close();
    github.close();
  }

  /**
   * Called after an organizer changed an event's status: entering judging starts the reviews now
   * rather than at the next poll. Queuing happens even in a process without workers (it is only
   * database work); the workers of any process then pick the reviews up. Never throws: the status
   * change itself has succeeded, and the poll retries anything that failed here.
   */
  async function onEventStatusChanged(event: EventRecord): Promise<void> {
    if (stopped || effectiveStatus(event, clock.now()) !== 'judging') return;
    try {
      await startJudging(event.id);
      await failUnconfigured();
      if (running) kickLoop();
    } catch (err) {
      log().error({ err, event: event.id }, 'starting judging failed; the scheduler will retry');
    }
  }

  /** One page of the event's reviews (see repo.listReviews for the order). */
  async function list(who: Principal, eventId: string, q: { limit: number; cursor?: string; status?: ReviewStatus; projectId?: string }) {
    const event = await events.getOwned(eventId, who);
    const after = q.cursor ? decodeCursor(q.cursor, 'reviews', event.id, ['id', 'text']) : undefined;
    const rows = await repo.listReviews(db, event.id, {
      limit: q.limit + 1,
      ...(q.status ? { status: q.status } : {}),
      ...(q.projectId ? { projectId: q.projectId } : {}),
      ...(after ? { after: [after[0]!, after[1]!] as const } : {}),
    });
    const page = takePage(rows, q.limit, (r) => [r.project_id, r.reviewer]);
    return { rows: page.items, nextCursor: page.nextKey ? encodeCursor('reviews', event.id, page.nextKey) : null };
  }

  /**
   * Re-queues reviews: by default every failed model review; with `model`, that model's finished
   * reviews (succeeded and failed; `status: 'failed'` narrows it to its failed ones). Only while the
   * event is judging: once results are published they are frozen (409 results_already_published);
   * before judging there is nothing to re-run (409 not_judging).
   */
  async function rerun(who: Principal, eventId: string, body: { model?: string; status?: 'failed' }): Promise<number> {
    const event = await events.getOwned(eventId, who);
    const status = effectiveStatus(event, clock.now());
    if (status === 'ended') throw new AppError('results_already_published', 'The results are published; reviews can no longer be re-run.');
    if (status !== 'judging') throw new AppError('not_judging', `The event is ${status}; reviews run only while it is judging.`);
    if (body.model !== undefined && !event.models.includes(body.model)) {
      throw validationError([{ field: 'model', message: `"${body.model}" is not a model of this event (${event.models.join(', ') || 'it has none'})` }]);
    }
    await startJudging(event.id); // in case the scheduler has not seen the event yet
    const statuses: ReviewStatus[] = body.model && body.status !== 'failed' ? ['failed', 'succeeded'] : ['failed'];
    const stamp = iso(clock.now());
    const n = await db.transaction().execute(async (tx) => {
      const requeued = await repo.requeue(tx, { eventId: event.id, statuses, now: stamp, ...(body.model ? { model: body.model } : {}) });
      await recordAudit(tx, {
        eventId: event.id,
        actor: actorOf(who),
        action: 'review.rerun',
        targetType: 'event',
        targetId: event.id,
        data: { model: body.model ?? null, statuses, requeued },
        at: stamp,
      });
      return requeued;
    });
    log().info({ event: event.id, model: body.model ?? null, requeued: n }, 'reviews re-queued');
    if (n > 0) {
      await failUnconfigured();
      if (running) kickLoop();
    }
    return n;
  }

  /**
   * The organizer's review page of one project: the project, every AI review (model, status,
   * scores, summary, failure), every human review (reviewer named, scores, comment) and the score
   * line they make. Three indexed reads (the event, the project, its reviews), whatever the size of
   * the event. A project of another event is 404 project_not_found.
   */
  /**
   * An organizer marks a screening flag checked (with a note) or open again. 404 flag_not_found for a
   * flag of another project or event.
   */
  async function setFlag(who: Principal, eventId: string, projectId: string, flagId: string, change: { status: 'open' | 'checked'; note?: string | null }) {
    const event = await events.getOwned(eventId, who);
    const checked = change.status === 'checked';
    const stamp = iso(clock.now());
    const note = change.note?.trim() || null;
    const row = await db.transaction().execute(async (tx) => {
      const updated = await setFlagStatus(tx, {
        eventId: event.id,
        projectId,
        flagId,
        status: change.status,
        note,
        checkedBy: checked ? who.userId : null,
        checkedAt: checked ? stamp : null,
        now: stamp,
      });
      if (updated) {
        await recordAudit(tx, {
          eventId: event.id,
          actor: actorOf(who),
          action: checked ? 'flag.checked' : 'flag.reopened',
          targetType: 'project_flag',
          targetId: updated.id,
          data: { project_id: projectId, kind: updated.kind, note },
          at: stamp,
        });
      }
      return updated;
    });
    if (!row) throw new AppError('flag_not_found', `no flag ${flagId} on project ${projectId} of this event`);
    return row;
  }

  async function projectReviews(who: Principal, eventId: string, projectId: string) {
    const event = await events.getOwned(eventId, who);
    const project = await repo.findProjectForReviewPage(db, event.id, projectId);
    if (!project) throw new AppError('project_not_found', `no project ${projectId} in this event`);
    const rows = await repo.listProjectReviews(db, project.id);
    const parse = (scores: string | null) => (scores ? (JSON.parse(scores) as Record<string, number>) : null);
    // In the event's own model order (a model removed from the event since sorts last).
    const place = (model: string) => (event.models.includes(model) ? event.models.indexOf(model) : event.models.length);
    const ai = rows
      .filter((r) => r.reviewer_kind === 'model')
      .sort((a, b) => place(a.reviewer) - place(b.reviewer) || (a.reviewer < b.reviewer ? -1 : a.reviewer > b.reviewer ? 1 : 0));
    const human = rows.filter((r) => r.reviewer_kind === 'human');
    const standing = deps.scoreLine ? await deps.scoreLine(event, project, rows) : { score: null, scores_by_model: {}, scores_by_dimension: {} };
    return {
      event_id: event.id,
      project: {
        id: project.id,
        project_name: project.project_name,
        name: project.project_name,
        team_name: project.team_name,
        track_id: project.track_id,
        description: project.description,
        description_html: renderMarkdownCached(project.description ?? ''),
        github_url: project.github_url,
        project_website: project.project_website,
        demo_video_url: project.demo_video_url,
        demo_url: project.demo_video_url,
        team_size: project.team_size,
        review_status: project.review_status,
        judged: project.registration_status === 'approved',
        submitted_at: project.first_submitted_at,
        updated_at: project.updated_at,
      },
      dimensions: event.dimensions,
      standing,
      ai_reviews: ai.map((r) => ({
        id: r.id,
        model: r.reviewer,
        status: r.status,
        scores: r.status === 'succeeded' ? parse(r.scores) : null,
        summary: r.status === 'succeeded' ? r.summary : null,
        attempts: r.attempts,
        failure_reason: r.status === 'failed' ? r.last_error : null,
        last_error: r.last_error,
        next_attempt_at: r.status === 'queued' ? r.next_attempt_at : null,
        latency_ms: r.latency_ms,
        input_tokens: r.input_tokens,
        output_tokens: r.output_tokens,
        created_at: r.created_at,
        updated_at: r.updated_at,
        completed_at: r.completed_at,
      })),
      human_reviews: human.map((r) => ({
        id: r.id,
        reviewer_id: r.reviewer,
        reviewer_name: r.reviewer_name?.trim() || null,
        reviewer_email: r.reviewer_email ?? null,
        scores: parse(r.scores) ?? {},
        comment: r.summary,
        created_at: r.created_at,
        updated_at: r.updated_at,
      })),
      flags: (await withDuplicateViews(db, event.id, project.id, await flagsOf(db, event.id, project.id))).map(({ updated_at: _updated, ...f }) => f),
    };
  }

  /**
   * The flags of projects as their reviewers see them: what screening and the build-window checks
   * found, and whether an organizer has checked it, without the organizer's note or name. The
   * caller has made sure the reader reviews these projects.
   */
  async function reviewerFlags(eventId: string, projectIds: readonly string[]) {
    const byProject = new Map<string, Array<Omit<Awaited<ReturnType<typeof flagsOfProjects>>[number], 'project_id'>>>();
    for (const { project_id, ...f } of await flagsOfProjects(db, eventId, projectIds)) byProject.set(project_id, [...(byProject.get(project_id) ?? []), f]);
    for (const [projectId, flags] of byProject) byProject.set(projectId, await withDuplicateViews(db, eventId, projectId, flags));
    return byProject;
  }

  /** One pass of the build-window checks now (their loop runs one every PASS_INTERVAL_MS): how many projects it checked or set to wait for GitHub (not counting one that met a rate limit). */
  async function checkBuildWindows(): Promise<number> {
    await buildWindow.idle();
    return buildWindow.runDue();
  }

  return {
    start,
    stop,
    tick,
    runOnce,
    drain,
    scheduleDue,
    checkBuildWindows,
    onEventStatusChanged,
    list,
    rerun,
    projectReviews,
    setFlag,
    reviewerFlags,
    workerId: worker.owner,
  };
}

export type ReviewsService = ReturnType<typeof createReviewsService>;
