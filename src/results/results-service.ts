import { actorOf, recordAudit } from '../core/audit.js';
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Principal } from '../core/principal.js';
import type { Clock } from '../core/clock.js';
import { uniqueViolation, type DatabaseHandle, type Db, type Executor } from '../core/db/index.js';
import { AppError, validationError } from '../core/errors.js';
import { cursorPartOk, decodeCursorArray } from '../core/http/pagination.js';
import { iso } from '../core/time.js';
import { resultsRetryAfterSeconds } from '../core/wait-policy.js';
import { fromRow, type EventRecord } from '../events/events-model.js';
import { findEvent } from '../events/events-repo.js';
import type { EventsService } from '../events/events-service.js';
import { effectiveStatus } from '../events/status.js';
import { csvRows } from './results-csv.js';
import { MIN_CORRELATION_PROJECTS, OUTLIER_CORRELATION, OUTLIER_OFFSET, reviewerAgreement, type Normalization, type ReviewerReview } from './normalization.js';
import { orderGroups, roundScore, SCORE_DECIMALS } from './ranking.js';
import { buildBundle } from './result-bundle.js';
import type { ResultSigner } from './result-signing.js';
import * as repo from './results-repo.js';
import { refreshAllStandings, type StandingsRefresher } from './standings-refresh.js';
import { placeOf, scoredGroups, standingsPage, unscored } from './standings-repo.js';
import type { StandingKey, StandingRow } from './standings.js';
import { enqueueWebhookEvent } from '../webhooks/webhook-events.js';
import { MAIL_QUEUED, queueNotificationBatch } from '../notifications/notification-queue.js';
import type { Notifier } from '../core/notifier.js';
import type { TeamResult } from '../registrations/team-result-schema.js';
import { teamResult } from './team-result.js';
import { computeWinners, OVERALL_PLACES, withTrackPlaces, type PublishedEntry } from './winners.js';
import type { ResultEntry } from './ranking.js';

/** Pages: `limit` entries (default and maximum as GET /events paginates), the next one by `cursor`. */
export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 1000;
/** Rows read per step when a whole ranking is walked (publication, CSV). */
const WALK_CHUNK = 500;
/** How many unscored project ids a refused publication names. */
const UNSCORED_SAMPLE = 10;
const SCALE = 10 ** SCORE_DECIMALS;

export interface PageQuery {
  trackId?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** One page of a ranking as JSON text (an array of entries) and the cursor of the next, if any. */
export interface RankingPage {
  json: string;
  nextCursor: string | null;
}

/** A page of the live leaderboard: also how many projects' standings were still being recomputed. */
export interface LeaderboardPage extends RankingPage {
  event: EventRecord;
  /** 0: every number is current; otherwise that many projects show their previous numbers (or none yet). */
  pending: number;
}

export interface PublishedResult {
  event: EventRecord;
  published_at: string;
  /** The normalisation the ranking was computed with at publication. */
  normalization: 'none' | 'zscore';
  /** Strong entity tag, quoted, of the page served: the snapshot's tag, qualified by track and page. */
  etag: string;
  /** Reads the page's stored rows, only when it is sent (not for a 304). */
  page(): Promise<RankingPage>;
}

/**
 * Cursors are opaque to clients: base64url of a small JSON array that starts with the list's kind
 * and the event it was issued for, so a cursor of another event (or list) is refused, not followed.
 */
function encodeCursor(kind: 'leaderboard' | 'result', eventId: string, parts: unknown[]): string {
  return Buffer.from(JSON.stringify([kind, eventId, ...parts])).toString('base64url');
}
function badCursor(why = 'not a cursor this endpoint issued (use the Link header of the previous page)'): AppError {
  return validationError([{ field: 'cursor', message: why }]);
}
/** Ranks, positions and score keys are stored as 32-bit integers: a cursor's numbers must fit. */
const INT32_MAX = 2 ** 31 - 1;
const int32In = (v: unknown, min: number): v is number => Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= INT32_MAX;
function decodeCursor(cursor: string, kind: 'leaderboard' | 'result', eventId: string): unknown[] {
  let parts: unknown[];
  try {
    parts = decodeCursorArray(cursor);
  } catch {
    throw badCursor();
  }
  const [k, e, ...rest] = parts;
  if (k !== kind) throw badCursor();
  if (e !== eventId) throw badCursor('belongs to another event');
  return rest;
}
/**
 * A leaderboard cursor: the last entry's sort key and, so the next page need not count its place
 * again, that entry's rank and 0-based position in the walk of `track` ('' for every track).
 */
interface StandingCursor extends StandingKey {
  place: { rank: number; position: number; track: string } | null;
}
function decodeStandingCursor(cursor: string, eventId: string): StandingCursor {
  const parts = decodeCursor(cursor, 'leaderboard', eventId);
  const [k, f, p, rank, position, track] = parts;
  if (!int32In(k, -1) || !cursorPartOk('time', f) || !cursorPartOk('id', p)) throw badCursor();
  // The place is optional: without it the page counts its place itself.
  if (parts.length === 3) return { score_key: k, first_submitted_at: f, project_id: p, place: null };
  const ok = parts.length === 6 && int32In(rank, 1) && int32In(position, 0) && position >= rank - 1 && (track === '' || cursorPartOk('text', track));
  if (!ok) throw badCursor();
  return { score_key: k, first_submitted_at: f, project_id: p, place: { rank, position, track: track } };
}
function decodePositionCursor(cursor: string, eventId: string): number {
  const parts = decodeCursor(cursor, 'result', eventId);
  const [n] = parts;
  if (parts.length !== 1 || !int32In(n, 1)) throw badCursor();
  return n;
}

const scoreOf = (key: number) => (key < 0 ? 0 : key / SCALE);

/**
 * The leaderboard's two scores side by side: `score_raw` (no normalisation) and `score_normalized`
 * (zscore; null while the event's normalization is none, as it is only computed for zscore events:
 * see standings.ts). `score` is the one the event's setting ranks by.
 */
function scoreVariants(r: StandingRow, normalization: Normalization): { score_raw: number; score_normalized: number | null } {
  return { score_raw: scoreOf(r.raw_score_key), score_normalized: normalization === 'zscore' ? scoreOf(r.score_key) : null };
}

/**
 * An entry's JSON after `{"rank":N` (contract shape); the leaderboard (given the event's
 * normalisation) adds the raw and normalised scores and the review coverage; the published result
 * (given the entry's place) adds `track_rank` and `track_prize`.
 */
function entryTail(r: StandingRow, leaderboard: { normalization: Normalization } | null, place?: { trackRank: number | null; prize: string | null }): string {
  let extra = '';
  // The published entry: its place in its track and the prize it won (winners.ts), frozen with it.
  if (place) extra = `,"track_rank":${place.trackRank},"track_prize":${JSON.stringify(place.prize)}`;
  if (leaderboard) {
    const v = scoreVariants(r, leaderboard.normalization);
    extra =
      `,"score_raw":${v.score_raw},"score_normalized":${v.score_normalized}` +
      `,"reviews":{"expected":${r.reviews_expected},"succeeded":${r.reviews_succeeded},"failed":${r.reviews_failed},"pending":${r.reviews_pending},"human":${r.reviews_human}}`;
  }
  return `,"project_id":${JSON.stringify(r.project_id)},"project_name":${JSON.stringify(r.project_name)},"team_name":${JSON.stringify(r.team_name)},"track_id":${JSON.stringify(r.track_id)},"score":${scoreOf(r.score_key)},"scores_by_model":${r.by_model},"scores_by_dimension":${r.by_dimension}${extra}}`;
}

/** Competition ranks down a run of rows in ranking order, given the first row's rank and position. */
function ranker(rank: number, position: number) {
  let prevKey: number | null = null;
  let i = 0;
  return (key: number): number => {
    if (prevKey !== null && key !== prevKey) rank = position + i + 1;
    prevKey = key;
    i++;
    return rank;
  };
}

/**
 * The results_published mail to every member of every ranked team, with the team's rank, score and
 * track rank: the members of all teams in one read, the mails queued in bulk (1,000 teams must not
 * make publication slow).
 */
async function queueResultMails(
  tx: Executor,
  event: EventRecord,
  placed: ReadonlyArray<{
    project_id: string;
    team_name: string;
    rank: number;
    score: number;
    track_id: string | null;
    track_rank: number | null;
    track_prize: string | null;
  }>,
  now: Date,
): Promise<number> {
  if (placed.length === 0) return 0;
  const members = await repo.membersOfEventProjects(tx, event.id);
  const byProject = new Map<string, string[]>();
  for (const m of members) {
    const list = byProject.get(m.project_id) ?? [];
    // The leader first, as teamMemberIds lists them.
    if (m.role === 'leader') list.unshift(m.user_id);
    else list.push(m.user_id);
    byProject.set(m.project_id, list);
  }
  const trackNames = new Map(event.tracks.map((t) => [t.id, t.name]));
  const groups = placed.map((p) => ({
    userIds: byProject.get(p.project_id) ?? [],
    data: {
      team_name: p.team_name,
      rank: p.rank,
      score: p.score,
      ...(p.track_id !== null && p.track_rank !== null ? { track_rank: p.track_rank, track_name: trackNames.get(p.track_id) ?? p.track_id } : {}),
      ...(p.track_prize !== null ? { track_prize: p.track_prize } : {}),
    },
  }));
  return queueNotificationBatch(tx, { kind: 'results_published', eventId: event.id, groups, now });
}

/**
 * Counted into the result at publication, in its transaction, by a domain above this one (the
 * people's choice vote): its entries go into the publish answer, or null when the event has none.
 */
export type PublicationExtra = (tx: Executor, event: EventRecord) => Promise<unknown[] | null>;

/**
 * Where human judging stands, asked at publication in its transaction by the domain that owns the
 * reviewers (injected: the same rank as this one): null when done or there is no human judging,
 * otherwise the numbers the unfinished_judging refusal names.
 */
export type JudgingProgress = (
  tx: Executor,
  eventId: string,
) => Promise<{ mode: string; projects_unfinished: number; reviewers_unfinished: number; open_assignments: number | null } | null>;

export function createResultsService(deps: {
  db: Db;
  dialect: DatabaseHandle['dialect'];
  clock: Clock;
  events: EventsService;
  standings: StandingsRefresher;
  peoplesChoice?: PublicationExtra;
  judgingProgress?: JudgingProgress;
  /** Told after a publication that queued mail, so the mail worker sends at once. */
  notifier?: Pick<Notifier, 'publish'>;
  /** SHA-256 of the review prompt template (from the reviews domain), recorded in the results bundle. */
  promptTemplateSha256?: string;
  /** The site's key that signs each results bundle (result-signing.ts). */
  signer: Pick<ResultSigner, 'current'>;
}) {
  const { db, clock, events, standings } = deps;

  /** `?track_id=`: validated against the event's tracks; an unknown track is a validation error. */
  function checkTrack(event: EventRecord, trackId: string | undefined): void {
    if (trackId === undefined) return;
    if (!event.tracks.some((t) => t.id === trackId)) {
      const known = event.tracks.map((t) => t.id);
      throw validationError([{ field: 'track_id', message: known.length ? `unknown track; one of: ${known.join(', ')}` : 'this event has no tracks' }]);
    }
  }

  /**
   * The whole live ranking in order (fresh standings assumed), `WALK_CHUNK` rows per read, each
   * row with its rank.
   */
  async function* walk(executor: Executor, eventId: string, trackId: string | undefined): AsyncGenerator<Array<{ row: StandingRow; rank: number }>> {
    const rankOf = ranker(1, 0);
    let from: StandingKey | undefined;
    for (;;) {
      const rows = await standingsPage(executor, { eventId, trackId, limit: WALK_CHUNK, after: from });
      if (rows.length === 0) return;
      yield rows.map((row) => ({ row, rank: rankOf(row.score_key) }));
      if (rows.length < WALK_CHUNK) return;
      from = rows[rows.length - 1]!;
    }
  }

  /** Owners only, at any time: one page of the ranking as it stands now (optionally one track). */
  async function leaderboard(who: Principal, eventId: string, q: PageQuery = {}): Promise<LeaderboardPage> {
    const event = await events.getOwned(eventId, who);
    checkTrack(event, q.trackId);
    const from = q.cursor !== undefined ? decodeStandingCursor(q.cursor, event.id) : undefined;
    const limit = q.limit ?? DEFAULT_PAGE_LIMIT;
    const pending = await standings.forRead(event.id);
    const rows = await standingsPage(db, { eventId: event.id, trackId: q.trackId, limit: limit + 1, after: from });
    const more = rows.length > limit;
    if (more) rows.length = limit;
    if (rows.length === 0) return { event, json: '[]', nextCursor: null, pending };
    const track = q.trackId ?? '';
    let place = { rank: 1, position: 0 };
    if (from?.place && from.place.track === track) {
      // Continuing a walk: the first entry follows the previous page's last one.
      const position = from.place.position + 1;
      place = { rank: rows[0]!.score_key === from.score_key ? from.place.rank : position + 1, position };
    } else if (from) {
      place = await placeOf(db, event.id, q.trackId, rows[0]!);
    }
    const rankOf = ranker(place.rank, place.position);
    let lastRank = place.rank;
    const json = '[' + rows.map((r) => `{"rank":${(lastRank = rankOf(r.score_key))}${entryTail(r, event)}`).join(',') + ']';
    const last = rows[rows.length - 1]!;
    const lastPosition = place.position + rows.length - 1;
    return {
      event,
      json,
      pending,
      nextCursor: more
        ? encodeCursor('leaderboard', event.id, [last.score_key, last.first_submitted_at, last.project_id, lastRank, lastPosition, track])
        : null,
    };
  }

  /** The published people's choice by project, for the CSV (undefined: the event has no vote). */
  async function peoplesChoiceColumns(event: EventRecord) {
    if (!event.voting.enabled) return undefined;
    const rows = await repo.peoplesChoiceRanks(db, event.id);
    return new Map(rows.map((r) => [r.project_id, { rank: r.rank, votes: r.votes }]));
  }

  /**
   * Owners only: the whole live ranking as CSV, streamed chunk by chunk (the consumer's backpressure
   * paces the reads). Columns: every model group that scored, in the event's order, and every dimension.
   */
  async function leaderboardCsv(who: Principal, eventId: string, q: { trackId?: string | undefined } = {}) {
    const event = await events.getOwned(eventId, who);
    checkTrack(event, q.trackId);
    // An export is complete: it waits for every stale standing (in slices that yield).
    await standings.complete(event.id);
    const groups = orderGroups([...event.models, ...(await scoredGroups(db, event.id))], event.models);
    const columns = {
      groups,
      dimensions: event.dimensions.map((d) => d.name),
      scoreVariants: true,
      peoplesChoice: await peoplesChoiceColumns(event),
      trackPlaces: true,
    };
    const prizes = new Map(event.tracks.map((t) => [t.id, t.prize ? t.prize : null]));
    // Each row's rank within its track (one track's export: its rank is the track's).
    const trackRankers = new Map<string, (key: number) => number>();
    const trackRankOf = (row: StandingRow, rank: number): number | null => {
      if (row.track_id === null) return null;
      if (q.trackId !== undefined) return rank;
      let rankOf = trackRankers.get(row.track_id);
      if (!rankOf) trackRankers.set(row.track_id, (rankOf = ranker(1, 0)));
      return rankOf(row.score_key);
    };
    async function* lines(): AsyncGenerator<string> {
      yield csvRows([], columns, true);
      for await (const chunk of walk(db, event.id, q.trackId)) {
        const entries = chunk.map(({ row, rank }) => {
          const trackRank = trackRankOf(row, rank);
          return {
            rank,
            project_id: row.project_id,
            project_name: row.project_name,
            team_name: row.team_name,
            track_id: row.track_id,
            score: scoreOf(row.score_key),
            ...scoreVariants(row, event.normalization),
            scores_by_model: JSON.parse(row.by_model) as Record<string, number>,
            scores_by_dimension: JSON.parse(row.by_dimension) as Record<string, number>,
            track_rank: trackRank,
            track_prize: row.track_id !== null && trackRank === 1 && row.score_key >= 0 ? (prizes.get(row.track_id) ?? null) : null,
          };
        });
        yield csvRows(entries, columns, false);
      }
    }
    return { event, lines: lines() };
  }

  /**
   * Freezes the current ranking as the event's result and ends the event, in one transaction.
   * Allowed while the event is judging. Concurrent publishes, even from several processes, produce
   * exactly one snapshot: each transaction first takes the event row's write lock, so they run one
   * after the other and the later ones find the result and answer results_already_published. The
   * primary key of `results` (one row per event) backs this up should anything slip past.
   * Refused with unscored_projects while a judged project has no score at all, and with
   * unfinished_judging while human judging is unfinished (see JudgingProgress), unless `force`.
   */
  async function publish(who: Principal, eventId: string, opts: { force?: boolean; releaseFeedback?: boolean } = {}) {
    const owned = await events.getOwned(eventId, who);
    // Most of the recomputation happens here, outside the transaction and its locks.
    await standings.complete(owned.id);
    const now = clock.now();
    const stamp = iso(now);
    // The signing key is read (made, the first time) outside the transaction: it outlives a publication that fails.
    const signer = await deps.signer.current();
    let mailsQueued = 0;
    try {
      const published = await db.transaction().execute(async (tx) => {
        // A no-op write as the first statement: on PostgreSQL it locks the event row until commit;
        // on SQLite it takes the database write lock before anything is read, so a second process
        // waits (busy timeout) instead of failing to upgrade a stale read snapshot.
        await repo.lockEventRow(tx, owned.id);
        if (await repo.resultExists(tx, owned.id)) throw alreadyPublished(owned);
        const row = await findEvent(tx, owned.id);
        if (!row) throw new AppError('event_not_found', `no event ${owned.id}`);
        const event = fromRow(row);
        const status = effectiveStatus(event, now);
        if (status !== 'judging') {
          throw new AppError('not_judging', `Results can be published while the event is judging; it is ${status}.`, {
            extra: { event_status: status },
          });
        }
        await refreshAllStandings(tx, event.id);
        if (!opts.force) {
          const missing = await unscored(tx, event.id, UNSCORED_SAMPLE);
          if (missing.count > 0) {
            // What to do depends on who scores: without models only human reviewers can.
            const next =
              event.models.length === 0
                ? 'The event has no AI models, so only human reviewers score: invite reviewers (POST /api/v1/events/{id}/reviewers) and have them review these projects ' +
                  '(GET /api/v1/events/{id}/reviewers shows who has), or publish anyway with {"force": true}.'
                : 'Wait for the AI reviews still running and re-run failed ones (GET /api/v1/events/{id}/reviews?status=failed says why; POST /api/v1/events/{id}/reviews/rerun), ' +
                  'or publish anyway with {"force": true}.';
            throw new AppError(
              'unscored_projects',
              `${missing.count} judged project(s) have no score at all (no succeeded review): publishing now would rank them last with score 0. ` +
                next.replaceAll('{id}', event.id),
              { extra: { unscored_count: missing.count, project_ids: missing.projectIds, ai_models: event.models.length } },
            );
          }
          const judging = deps.judgingProgress ? await deps.judgingProgress(tx, event.id) : null;
          if (judging) {
            const what =
              judging.mode === 'assigned'
                ? `${judging.projects_unfinished} project(s) have fewer human reviews than reviewers assigned; ${judging.reviewers_unfinished} reviewer(s) have ${judging.open_assignments} open assignment(s)`
                : `${judging.projects_unfinished} project(s) have no human review yet; ${judging.reviewers_unfinished} reviewer(s) have reviewed nothing`;
            throw new AppError(
              'unfinished_judging',
              `Human judging is unfinished: ${what}. Publishing now would rank those projects on fewer judges. Wait, or publish anyway with {"force": true}.`,
              { extra: { ...judging } },
            );
          }
        }
        // The result's row first: its primary key (one per event) backs up the event row's lock
        // against a second snapshot; its tag is set once every entry is stored.
        await repo.insertResult(tx, {
          event_id: event.id,
          published_at: stamp,
          published_by: who.userId,
          entries: '',
          etag: '',
          normalization: event.normalization,
        });
        // The entries are read, stored and hashed a chunk at a time, with a turn of the event loop
        // after each: on SQLite the queries run on the event loop itself, and 50,000 entries in one
        // go would block it for most of a second (the transaction keeps the connection meanwhile;
        // requests that need no query go on). The tag is the SHA-256 of the whole array's bytes.
        // The answer keeps each chunk's text (its entries joined, after a comma but for the first).
        const pieces: string[] = [];
        const hash = createHash('sha256').update('[');
        const tracks = new Map<string, { position: number; rankOf: (key: number) => number }>();
        // What each ranked team's mail says (queued below, in this transaction).
        const placed: Array<Parameters<typeof queueResultMails>[2][number]> = [];
        // A track's winner wins its prize (winners.ts): first in its track and scored.
        const prizes = new Map(event.tracks.map((t) => [t.id, t.prize ? t.prize : null]));
        let position = 0;
        for await (const chunk of walk(tx, event.id, undefined)) {
          // Stored as they are read: only the chunk's text is kept for the answer.
          const rows: Parameters<typeof repo.insertResultEntries>[2] = [];
          const texts: string[] = [];
          for (const { row, rank } of chunk) {
            let trackPosition: number | null = null;
            let trackRank: number | null = null;
            if (row.track_id !== null) {
              let t = tracks.get(row.track_id);
              if (!t) tracks.set(row.track_id, (t = { position: 0, rankOf: ranker(1, 0) }));
              trackPosition = t.position++;
              trackRank = t.rankOf(row.score_key);
            }
            const prize = row.track_id !== null && trackRank === 1 && row.score_key >= 0 ? (prizes.get(row.track_id) ?? null) : null;
            const tail = entryTail(row, null, { trackRank, prize });
            texts.push(`{"rank":${rank}${tail}`);
            placed.push({
              project_id: row.project_id,
              team_name: row.team_name,
              rank,
              score: row.score_key < 0 ? 0 : row.score_key / SCALE,
              track_id: row.track_id,
              track_rank: trackRank,
              track_prize: prize,
            });
            rows.push({
              position: position++,
              rank,
              track_id: row.track_id,
              track_position: trackPosition,
              track_rank: trackRank,
              entry_tail: tail,
              project_id: row.project_id,
            });
          }
          const piece = (pieces.length > 0 ? ',' : '') + texts.join(',');
          pieces.push(piece);
          hash.update(piece);
          await repo.insertResultEntries(tx, event.id, rows);
          await nextTurn();
        }
        const etag = hash.update(']').digest('base64url');
        // The entries live in result_entries; the tag is the hash of their whole array's bytes.
        await repo.setResultEtag(tx, event.id, etag);
        const peoplesChoice = deps.peoplesChoice ? await deps.peoplesChoice(tx, event) : null;
        // The verifiable bundle (result-bundle.ts): the ranking just stored, with what it was computed from.
        const bundle = await buildBundle(tx, {
          event,
          publishedAt: stamp,
          rankingPieces: pieces,
          peoplesChoice,
          promptTemplateSha256: deps.promptTemplateSha256 ?? null,
          signer,
        });
        await repo.insertResultBundle(tx, { event_id: event.id, bundle: bundle.text, sha256: bundle.bundle.sha256, created_at: stamp });
        const feedbackReleased = opts.releaseFeedback === true;
        await repo.markEventPublished(tx, event.id, stamp, feedbackReleased);
        await recordAudit(tx, {
          eventId: event.id,
          actor: actorOf(who),
          action: 'results.published',
          targetType: 'event',
          targetId: event.id,
          data: { force: opts.force === true, feedback_released: feedbackReleased, normalization: event.normalization, etag: `"${etag}"` },
          at: stamp,
        });
        mailsQueued = await queueResultMails(tx, event, placed, now);
        await enqueueWebhookEvent(tx, { type: 'results.published', eventId: event.id, data: { event_id: event.id, published_at: stamp }, at: stamp });
        return {
          event_id: event.id,
          status: 'ended' as const,
          result_announced_at: stamp,
          published_at: stamp,
          feedback_released: feedbackReleased,
          normalization: event.normalization,
          etag: `"${etag}"`,
          peoples_choice: peoplesChoice,
          // Computed from the frozen ranking (winners.ts), as the bundle records them.
          winners: bundle.bundle.winners!,
          entryPieces: pieces,
        };
      });
      // The event row changed (status, result_announced_at): drop cached copies of it.
      events.changed(owned.id);
      if (mailsQueued > 0) deps.notifier?.publish(MAIL_QUEUED);
      // `entryPieces`: the entries array's JSON text without its brackets, in pieces; between
      // brackets, exactly the bytes the tag was computed from.
      return published;
    } catch (err) {
      if (uniqueViolation(err) === 'results_pkey') throw alreadyPublished(owned);
      throw err;
    }
  }

  /** Carries the event's status and, unless it never will publish, when to ask again (the wait policy). */
  function notPublished(event: EventRecord, now: Date): AppError {
    const status = effectiveStatus(event, now);
    const retryAfter = resultsRetryAfterSeconds(status);
    const detail =
      retryAfter === null
        ? `The event "${event.name}" is cancelled: its results will never be published.`
        : `The results of "${event.name}" have not been published yet (the event is ${status}; results come after judging). Ask again in ${retryAfter} s or later.`;
    return new AppError('results_not_published', detail, {
      extra: { event_status: status },
      ...(retryAfter !== null ? { retryAfterSeconds: retryAfter } : {}),
    });
  }

  function alreadyPublished(event: EventRecord): AppError {
    return new AppError('results_already_published', `The results of "${event.name}" are already published; a published result never changes.`);
  }

  /**
   * One page of the frozen result, for anyone who can see the event. The tag comes from the small
   * `results` row alone, so a conditional request is answered without reading any entry. A track's
   * ranks were fixed at publication from the frozen entries (ties kept as in the full result).
   */
  async function published(who: Principal | null, eventId: string, q: PageQuery = {}): Promise<PublishedResult> {
    const event = await events.getPublic(eventId, who);
    checkTrack(event, q.trackId);
    const start = q.cursor !== undefined ? decodePositionCursor(q.cursor, event.id) : 0;
    const limit = q.limit ?? DEFAULT_PAGE_LIMIT;
    const row = await repo.findResultTag(db, event.id);
    if (!row) throw notPublished(event, clock.now());
    // Each track and page is its own representation, so it has its own tag (':' never occurs in an
    // encoded track id, so tags cannot collide). The first default page keeps the snapshot's tag.
    const track = q.trackId !== undefined ? `.${encodeURIComponent(q.trackId)}` : '';
    const page = start === 0 && limit === DEFAULT_PAGE_LIMIT ? '' : `:${start}:${limit}`;
    return {
      event,
      published_at: row.published_at,
      normalization: row.normalization,
      etag: `"${row.etag}${track}${page}"`,
      async page() {
        const rows = await repo.resultEntries(db, { eventId: event.id, trackId: q.trackId, start, limit: limit + 1 });
        const more = rows.length > limit;
        if (more) rows.length = limit;
        return {
          json: '[' + rows.map((r) => `{"rank":${r.rank}${r.entry_tail}`).join(',') + ']',
          nextCursor: more ? encodeCursor('result', event.id, [start + limit]) : null,
        };
      },
    };
  }

  /**
   * The winners of the published result (winners.ts), for anyone who can see the event: derived
   * from the frozen entries that can win (first in a track, or an overall top place), whose
   * `track_prize` was fixed at publication; the tracks in the event's order with their names.
   * An entry frozen before track places were stored carries none: it is placed from its track rank.
   */
  async function winners(who: Principal | null, eventId: string) {
    const event = await events.getPublic(eventId, who);
    const row = await repo.findResultTag(db, event.id);
    if (!row) throw notPublished(event, clock.now());
    const rows = await repo.winnerEntries(db, event.id, OVERALL_PLACES);
    const entries = rows.map((r) => JSON.parse(`{"rank":${r.rank}${r.entry_tail}`) as Partial<PublishedEntry> & ResultEntry);
    const placed = entries.some((e) => e.track_rank === undefined) ? withTrackPlaces(entries, event.tracks) : (entries as PublishedEntry[]);
    // The track names are read now: the tag changes with them.
    const names = createHash('sha256')
      .update(JSON.stringify(event.tracks.map((t) => [t.id, t.name])))
      .digest('base64url')
      .slice(0, 12);
    return {
      event,
      etag: `"${row.etag}.winners.${names}"`,
      body: { event_id: event.id, published_at: row.published_at, ...computeWinners(placed, event.tracks) },
    };
  }

  /**
   * The published result's verifiable bundle (result-bundle.ts), for anyone who can see the event:
   * its stored canonical JSON text, tagged by its sha256. Before publication, refused as the result
   * is (results_not_published); an event published before bundles existed has none
   * (bundle_not_available: a bundle built later could not vouch for what was published).
   */
  async function resultBundle(who: Principal | null, eventId: string): Promise<{ event: EventRecord; etag: string; text: string }> {
    const event = await events.getPublic(eventId, who);
    const row = await repo.findResultTag(db, event.id);
    if (!row) throw notPublished(event, clock.now());
    const stored = await repo.findResultBundle(db, event.id);
    if (!stored) {
      throw new AppError(
        'bundle_not_available',
        `The results of "${event.name}" were published before results bundles existed: there is no bundle for them. The ranking itself is at GET /events/${event.id}/result.`,
      );
    }
    return { event, etag: `"${stored.sha256}"`, text: stored.bundle };
  }

  /**
   * Owners, once results are published: whether the teams may read their reviews. One conditional
   * update (the result must exist), so a switch before publication changes nothing.
   */
  async function setFeedbackRelease(who: Principal, eventId: string, released: boolean) {
    const event = await events.getOwned(eventId, who);
    const stamp = iso(clock.now());
    const done = await db.transaction().execute(async (tx) => {
      if (!(await repo.setFeedbackReleasedIfPublished(tx, event.id, released, stamp))) return false;
      await recordAudit(tx, {
        eventId: event.id,
        actor: actorOf(who),
        action: released ? 'feedback.released' : 'feedback.withheld',
        targetType: 'event',
        targetId: event.id,
        data: { changes: [{ field: 'feedback_released', before: event.feedback_released, after: released }] },
        at: stamp,
      });
      return true;
    });
    if (!done) throw notPublished(event, clock.now());
    events.changed(event.id);
    return { event_id: event.id, feedback_released: released, updated_at: stamp };
  }

  /**
   * A registration's own result (null before publication). The caller vouches that the reader is
   * on the team or an organizer: my-registration and the team route read it for the caller's own team.
   */
  async function teamResultOf(
    registration: { id: string; event_id: string; track_id: string | null },
    known?: Pick<EventRecord, 'id' | 'dimensions' | 'feedback_released' | 'result_announced_at'>,
  ): Promise<TeamResult | null> {
    const event = known ?? (await events.load(registration.event_id));
    if (!event) return null;
    return teamResult(db, event, registration);
  }

  /**
   * Owners, any time: how far each reviewer's (and each model's) raw scores are from the rest of the
   * panel, over the judged projects' succeeded reviews, flagged when the mean offset is over
   * OUTLIER_OFFSET points or the correlation with the others is below OUTLIER_CORRELATION.
   * Flagged reviewers first (largest offset first), then the rest by offset.
   */
  async function reviewerOutliers(who: Principal, eventId: string) {
    const event = await events.getOwned(eventId, who);
    const rows = await repo.judgedSucceededReviews(db, event.id);
    const people = new Map<string, { kind: 'human' | 'model'; id: string; name: string | null; email: string | null }>();
    const reviews: ReviewerReview[] = [];
    for (const r of rows) {
      if (r.scores === null) continue;
      let scores: unknown;
      try {
        scores = JSON.parse(r.scores);
      } catch {
        continue;
      }
      if (scores === null || typeof scores !== 'object' || Array.isArray(scores)) continue;
      const human = r.reviewer_kind === 'human';
      const key = human ? `human:${r.reviewer}` : `model:${r.group_key}`;
      if (!people.has(key))
        people.set(
          key,
          human
            ? { kind: 'human', id: r.reviewer, name: r.name ?? null, email: r.email ?? null }
            : { kind: 'model', id: r.group_key, name: r.group_key, email: null },
        );
      reviews.push({ project_id: r.project_id, group_key: r.group_key, reviewer_key: key, scores: scores as Record<string, unknown> });
    }
    const round = (x: number | null) => (x === null ? null : roundScore(x));
    const reviewers = reviewerAgreement(event.dimensions, reviews)
      .map((a) => {
        const p = people.get(a.reviewer_key)!;
        return {
          reviewer_kind: p.kind,
          reviewer_id: p.id,
          name: p.name,
          email: p.email,
          projects: a.projects,
          common_projects: a.common_projects,
          // Correlations carry 4 decimals too, like every published number.
          mean_offset: round(a.mean_offset),
          correlation: a.correlation === null ? null : Math.round(a.correlation * 10_000) / 10_000,
          flagged: a.flags.length > 0,
          flags: a.flags,
        };
      })
      .sort(
        (a, b) =>
          Number(b.flagged) - Number(a.flagged) || Math.abs(b.mean_offset ?? 0) - Math.abs(a.mean_offset ?? 0) || (a.reviewer_id < b.reviewer_id ? -1 : 1),
      );
    return {
      event_id: event.id,
      thresholds: { mean_offset: OUTLIER_OFFSET, correlation: OUTLIER_CORRELATION, min_common_projects: MIN_CORRELATION_PROJECTS },
      reviewers,
    };
  }

  return { leaderboard, leaderboardCsv, publish, published, winners, resultBundle, setFeedbackRelease, teamResult: teamResultOf, reviewerOutliers };
}

export type ResultsService = ReturnType<typeof createResultsService>;
