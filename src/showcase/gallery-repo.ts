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

/**
 * Up to `limit` of the event's judged projects after project id `after`, in project id order
 * (submission order: ids are time-sortable), in a track, with a case-insensitive part of the name.
 */
export async function galleryPage(
  db: Executor,
  eventId: string,
  q: { trackId?: string | undefined; needle?: string | undefined; after?: string | undefined; limit: number },
) {
  let query = galleryProjects(db, eventId);
  if (q.trackId !== undefined) query = query.where('projects.track_id', '=', q.trackId);
  if (q.needle) {
    const pattern = `%${likeLiteral(q.needle)}%`;
    query = query.where(sql<string>`lower(projects.project_name)`, 'like', sql<string>`${pattern} escape '\\'`);
  }
  if (q.after !== undefined) query = query.where('projects.id', '>', q.after);
  return query.orderBy('projects.id', 'asc').limit(q.limit).execute();
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
