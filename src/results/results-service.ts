import { createHash } from 'node:crypto';
import type { Principal } from '../accounts/accounts-service.js';
import type { Clock } from '../core/clock.js';
import { uniqueViolation, type DatabaseHandle, type Db, type Executor } from '../core/db/index.js';
import { AppError, validationError } from '../core/errors.js';
import { iso } from '../core/time.js';
import { fromRow, type EventRecord } from '../events/events-model.js';
import { findEvent } from '../events/events-repo.js';
import type { EventsService } from '../events/events-service.js';
import { effectiveStatus } from '../events/status.js';
import { orderGroups, rankProjects, rerank, type ResultEntry } from './ranking.js';
import * as repo from './results-repo.js';

/** A ranking and the columns a table of it needs (every model group and dimension, in order). */
export interface Ranking {
  event: EventRecord;
  entries: ResultEntry[];
  columns: { groups: string[]; dimensions: string[] };
}

export interface PublishedResult {
  event: EventRecord;
  published_at: string;
  /** Strong entity tag, quoted, for the representation served (the track's, when filtered). */
  etag: string;
  /**
   * The body, built only when it is sent (not for a 304): the stored JSON text as is for the whole
   * result, or the track's entries.
   */
  body(): string | ResultEntry[];
}

/** Strong ETag of a frozen snapshot: a hash of exactly the bytes stored. */
export function snapshotTag(entriesJson: string): string {
  return createHash('sha256').update(entriesJson).digest('base64url');
}

export function createResultsService(deps: { db: Db; dialect: DatabaseHandle['dialect']; clock: Clock; events: EventsService }) {
  const { db, dialect, clock, events } = deps;

  /** The live ranking of every approved team's project, from the event's succeeded reviews. */
  async function computeRanking(executor: Executor, event: EventRecord): Promise<ResultEntry[]> {
    const [projects, reviews] = await Promise.all([repo.rankedProjects(executor, event.id), repo.succeededReviews(executor, dialect, event.id)]);
    return rankProjects({ dimensions: event.dimensions, projects, reviews, groupOrder: event.models });
  }

  /** `?track_id=`: null for "every track"; an unknown track is a validation error. */
  function trackFilter(event: EventRecord, trackId: string | undefined): ((e: ResultEntry) => boolean) | null {
    if (trackId === undefined) return null;
    if (!event.tracks.some((t) => t.id === trackId)) {
      const known = event.tracks.map((t) => t.id);
      throw validationError([
        { field: 'track_id', message: known.length ? `unknown track; one of: ${known.join(', ')}` : 'this event has no tracks' },
      ]);
    }
    return (e) => e.track_id === trackId;
  }

  function columnsOf(event: EventRecord, entries: readonly ResultEntry[]): Ranking['columns'] {
    const seen = new Set<string>(event.models);
    for (const e of entries) for (const g in e.scores_by_model) seen.add(g);
    return { groups: orderGroups(seen, event.models), dimensions: event.dimensions.map((d) => d.name) };
  }

  /** Owners only, at any time: the ranking as it stands now (optionally one track, ranked within it). */
  async function leaderboard(who: Principal, eventId: string, opts: { trackId?: string } = {}): Promise<Ranking> {
    const event = await events.getOwned(eventId, who);
    const keep = trackFilter(event, opts.trackId);
    const all = await computeRanking(db, event);
    const entries = keep ? rerank(all, keep) : all;
    return { event, entries, columns: columnsOf(event, all) };
  }

  /**
   * Freezes the current ranking as the event's result and ends the event, in one transaction.
   * Allowed while the event is judging. Concurrent publishes, even from several processes, produce
   * exactly one snapshot: each transaction first takes the event row's write lock, so they run one
   * after the other and the later ones find the result and answer results_already_published. The
   * primary key of `results` (one row per event) backs this up should anything slip past.
   */
  async function publish(who: Principal, eventId: string) {
    const owned = await events.getOwned(eventId, who);
    const now = clock.now();
    const stamp = iso(now);
    try {
      const published = await db.transaction().execute(async (tx) => {
        // A no-op write as the first statement: on PostgreSQL it locks the event row until commit;
        // on SQLite it takes the database write lock before anything is read, so a second process
        // waits (busy timeout) instead of failing to upgrade a stale read snapshot.
        await tx.updateTable('events').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', owned.id).execute();
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
        const entries = await computeRanking(tx, event);
        const json = JSON.stringify(entries);
        const etag = snapshotTag(json);
        await repo.insertResult(tx, { event_id: event.id, published_at: stamp, published_by: who.userId, entries: json, etag });
        await tx
          .updateTable('events')
          .set({ status: 'ended', result_announced_at: stamp, updated_at: stamp })
          .where('id', '=', event.id)
          .execute();
        return { event_id: event.id, status: 'ended' as const, result_announced_at: stamp, published_at: stamp, etag: `"${etag}"`, entries };
      });
      // The event row changed (status, result_announced_at): drop cached copies of it.
      events.changed(owned.id);
      return published;
    } catch (err) {
      if (uniqueViolation(err) === 'results_pkey') throw alreadyPublished(owned);
      throw err;
    }
  }

  function alreadyPublished(event: EventRecord): AppError {
    return new AppError('results_already_published', `The results of "${event.name}" are already published; a published result never changes.`);
  }

  /**
   * The frozen result, for anyone who can see the event. A track's ranking is derived from the
   * frozen entries (filtered, ranks recomputed within the track, ties kept as in the full result),
   * so it can never drift from the published snapshot.
   */
  async function published(who: Principal | null, eventId: string, opts: { trackId?: string } = {}): Promise<PublishedResult> {
    const event = await events.getVisible(eventId, who);
    const keep = trackFilter(event, opts.trackId);
    const row = await repo.findResult(db, event.id);
    if (!row) throw new AppError('results_not_published', `The results of "${event.name}" have not been published yet.`);
    if (!keep) return { event, published_at: row.published_at, etag: `"${row.etag}"`, body: () => row.entries };
    return {
      event,
      published_at: row.published_at,
      // Each track's ranking is its own representation, so it has its own tag.
      etag: `"${row.etag}.${encodeURIComponent(opts.trackId!)}"`,
      body: () => rerank(JSON.parse(row.entries) as ResultEntry[], keep),
    };
  }

  return { leaderboard, publish, published, computeRanking };
}

export type ResultsService = ReturnType<typeof createResultsService>;
