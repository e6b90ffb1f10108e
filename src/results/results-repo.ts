import type { Executor } from '../core/db/index.js';
import type { ResultRow } from '../core/db/schema.js';
import { HUMAN_GROUP, type RankingProject, type RankingReview } from './ranking.js';

/**
 * The projects that take part in the ranking: submitted by a team whose registration is approved
 * (a team rejected after submitting drops out).
 */
export async function rankedProjects(db: Executor, eventId: string): Promise<RankingProject[]> {
  return db
    .selectFrom('projects')
    .innerJoin('registrations', 'registrations.id', 'projects.registration_id')
    .select([
      'projects.id as project_id',
      'projects.project_name',
      'registrations.team_name',
      'projects.track_id',
      'projects.first_submitted_at',
    ])
    .where('projects.event_id', '=', eventId)
    .where('registrations.status', '=', 'approved')
    .execute();
}

/**
 * Every succeeded review of the event with its parsed scores. Reviews of projects outside the
 * ranking are returned too; the ranking ignores them. Human reviewers always form the `human`
 * group, whatever their stored group_key says.
 */
export async function succeededReviews(db: Executor, eventId: string): Promise<RankingReview[]> {
  const rows = await db
    .selectFrom('reviews')
    .select(['project_id', 'reviewer_kind', 'group_key', 'scores'])
    .where('event_id', '=', eventId)
    .where('status', '=', 'succeeded')
    .execute();
  const out: RankingReview[] = [];
  for (const r of rows) {
    if (r.scores === null) continue;
    let scores: unknown;
    try {
      scores = JSON.parse(r.scores);
    } catch {
      continue; // a broken row never becomes a score
    }
    if (scores === null || typeof scores !== 'object' || Array.isArray(scores)) continue;
    out.push({
      project_id: r.project_id,
      group_key: r.reviewer_kind === 'human' ? HUMAN_GROUP : r.group_key,
      scores: scores as Record<string, unknown>,
    });
  }
  return out;
}

export async function findResult(db: Executor, eventId: string): Promise<ResultRow | undefined> {
  return db.selectFrom('results').selectAll().where('event_id', '=', eventId).executeTakeFirst();
}

export async function resultExists(db: Executor, eventId: string): Promise<boolean> {
  const row = await db.selectFrom('results').select('event_id').where('event_id', '=', eventId).executeTakeFirst();
  return row !== undefined;
}

export async function insertResult(db: Executor, row: ResultRow): Promise<void> {
  await db.insertInto('results').values(row).execute();
}
