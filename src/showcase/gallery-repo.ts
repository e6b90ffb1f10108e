import { sql } from 'kysely';
import type { Executor } from '../core/db/index.js';
import { judgedProjects } from '../submissions/judged-projects-repo.js';

/** A LIKE pattern's text taken literally (with `escape '\\'`). */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function galleryProjects(db: Executor, eventId: string) {
  return judgedProjects(db, eventId).select([
    'projects.id',
    'projects.project_name',
    'projects.description',
    'projects.github_url',
    'projects.project_website',
    'projects.demo_video_url',
    'projects.tagline',
    'projects.tags',
    'projects.screenshots',
    'projects.track_id',
    'projects.first_submitted_at',
    'projects.updated_at',
    'registrations.team_name',
    'registrations.id as registration_id',
  ]);
}

/** What a gallery list is narrowed by: a track, one normalised tag, a lower-case needle. */
export interface GalleryFilter {
  trackId?: string | undefined;
  tag?: string | undefined;
  needle?: string | undefined;
}

/** The event's judged projects narrowed by the filter (a card's columns are chosen by the caller). */
function filtered(db: Executor, eventId: string, f: GalleryFilter) {
  let query = judgedProjects(db, eventId);
  if (f.trackId !== undefined) query = query.where('projects.track_id', '=', f.trackId);
  if (f.tag !== undefined) {
    // Tags are stored as a JSON array of normalised strings: the tag's JSON spelling, quotes
    // included, matches one whole element.
    const pattern = `%${likeLiteral(JSON.stringify(f.tag))}%`;
    query = query.where('projects.tags', 'like', sql<string>`${pattern} escape '\\'`);
  }
  if (f.needle) {
    const pattern = `%${likeLiteral(f.needle)}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql<string>`lower(projects.project_name)`, 'like', sql<string>`${pattern} escape '\\'`),
        eb(sql<string>`lower(coalesce(projects.tagline, ''))`, 'like', sql<string>`${pattern} escape '\\'`),
        eb(sql<string>`lower(projects.tags)`, 'like', sql<string>`${pattern} escape '\\'`),
      ]),
    );
  }
  return query;
}

const CARD_COLUMNS = [
  'projects.id',
  'projects.project_name',
  'projects.description',
  'projects.github_url',
  'projects.project_website',
  'projects.demo_video_url',
  'projects.track_id',
  'projects.first_submitted_at',
  'projects.tagline',
  'projects.tags',
  'projects.screenshots',
  'registrations.team_name',
] as const;

/**
 * Up to `limit` cards of the event's judged projects after project id `after`, in project id order
 * (submission order: ids are time-sortable), narrowed by the filter.
 */
export async function galleryPage(db: Executor, eventId: string, q: GalleryFilter & { after?: string | undefined; limit: number }) {
  let query = filtered(db, eventId, q).select(CARD_COLUMNS);
  if (q.after !== undefined) query = query.where('projects.id', '>', q.after);
  return query.orderBy('projects.id', 'asc').limit(q.limit).execute();
}

/**
 * Every matching project's id (a shuffled or result order is sorted in the service), with its entry
 * in the frozen result when `withResult` (null: unranked). One indexed read of ids and small numbers.
 */
export async function galleryKeys(db: Executor, eventId: string, f: GalleryFilter, withResult: boolean) {
  const base = filtered(db, eventId, f);
  if (!withResult) {
    const rows = await base.select(['projects.id']).execute();
    return rows.map((r) => ({ id: r.id, entry: null }));
  }
  const rows = await base
    .leftJoin('result_entries', (j) => j.onRef('result_entries.project_id', '=', 'projects.id').on('result_entries.event_id', '=', eventId))
    .select(['projects.id', 'result_entries.rank', 'result_entries.track_rank', 'result_entries.position'])
    .execute();
  return rows.map((r) => ({
    id: r.id,
    entry:
      r.rank === null || r.position === null
        ? null
        : { rank: Number(r.rank), track_rank: r.track_rank === null ? null : Number(r.track_rank), position: Number(r.position) },
  }));
}

/** The cards of the given projects (any order; at most a page of ids). */
export async function galleryCards(db: Executor, eventId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return judgedProjects(db, eventId).select(CARD_COLUMNS).where('projects.id', 'in', ids).execute();
}

/** One judged project of the event, as the gallery shows it. */
export async function galleryProject(db: Executor, eventId: string, projectId: string) {
  return galleryProjects(db, eventId).where('projects.id', '=', projectId).executeTakeFirst();
}

/** The names of a team's members, in joining order (null for those without one). */
export async function memberNames(db: Executor, registrationId: string) {
  return db
    .selectFrom('team_members')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .select(['users.name'])
    .where('team_members.registration_id', '=', registrationId)
    .orderBy('team_members.joined_at')
    .orderBy('team_members.user_id')
    .execute();
}

/** The project's entry in the event's frozen result. */
export async function resultEntryOf(db: Executor, eventId: string, projectId: string) {
  return db
    .selectFrom('result_entries')
    .select(['rank', 'track_rank', 'entry_tail'])
    .where('event_id', '=', eventId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}
