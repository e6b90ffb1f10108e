import { sql } from 'kysely';
import type { Executor } from '../core/db/index.js';
import { param, prepared } from '../core/db/prepared.js';
import type { ProjectRow } from '../core/db/schema.js';
import type { NormalisedSubmission } from './submission-input.js';

/**
 * What a submit writes: the team's answers, and who and when. `tagline` and `tags` (a JSON array)
 * are null when the client left them out: the project keeps its own ('' clears the tagline).
 */
export interface ProjectWrite extends Omit<NormalisedSubmission, 'tagline' | 'tags'> {
  tagline: string | null;
  tags: string | null;
  id: string;
  event_id: string;
  registration_id: string;
  stamp: string;
  user_id: string;
}

const ANSWERS = ['project_name', 'github_url', 'project_website', 'demo_video_url', 'team_size', 'description', 'track_id'] as const satisfies ReadonlyArray<
  keyof NormalisedSubmission
>;

/** The showcase answers a submit may leave out: a new project starts without them, a replaced one keeps its own. */
const newShowcase = () => ({
  tagline: sql<string | null>`nullif(cast(${param('tagline')} as text), '')`,
  tags: sql<string>`coalesce(cast(${param('tags')} as text), '[]')`,
});
const keptShowcase = () => ({
  tagline: sql<string | null>`nullif(coalesce(cast(${param('tagline')} as text), projects.tagline), '')`,
  tags: sql<string>`coalesce(cast(${param('tags')} as text), projects.tags)`,
});

const newProject = () => ({
  id: param<string>('id'),
  event_id: param<string>('event_id'),
  registration_id: param<string>('registration_id'),
  ...(Object.fromEntries(ANSWERS.map((c) => [c, param(c)])) as unknown as NormalisedSubmission),
  ...newShowcase(),
  status: 'submitted' as const,
  review_status: 'pending' as const,
  first_submitted_at: param<string>('stamp'),
  created_at: param<string>('stamp'),
  updated_at: param<string>('stamp'),
  updated_by_user_id: param<string>('user_id'),
});

const changedAnswers = () => ({
  ...(Object.fromEntries(ANSWERS.map((c) => [c, param(c)])) as unknown as NormalisedSubmission),
  ...keptShowcase(),
  updated_at: param<string>('stamp'),
  updated_by_user_id: param<string>('user_id'),
});

const insertIfNewQuery = prepared<ProjectWrite, ProjectRow>((db) =>
  db
    .insertInto('projects')
    .values(newProject())
    .onConflict((oc) => oc.column('registration_id').doNothing())
    .returningAll(),
);

const updateQuery = prepared<ProjectWrite, ProjectRow>((db) =>
  db.updateTable('projects').set(changedAnswers()).where('registration_id', '=', param<string>('registration_id')).returningAll(),
);

/**
 * PostgreSQL: create or replace in one statement; `xmax = 0` holds for a row this statement
 * inserted (an updated row carries the updating transaction's id), which tells the two apart.
 */
const upsertQuery = prepared<ProjectWrite, ProjectRow & { inserted: boolean }>((db) =>
  db
    .insertInto('projects')
    .values(newProject())
    .onConflict((oc) => oc.column('registration_id').doUpdateSet(changedAnswers()))
    .returningAll()
    .returning(sql<boolean>`(xmax = 0)`.as('inserted')),
);

/**
 * Creates the team's project or replaces its answers (last write wins); `created` says which. The
 * unique (registration_id) decides which of several concurrent first submits creates it. One
 * statement on PostgreSQL; on SQLite an INSERT that does nothing on conflict, then the UPDATE.
 */
export async function saveProject(db: Executor, w: ProjectWrite, dialect: 'sqlite' | 'postgres'): Promise<{ project: ProjectRow; created: boolean }> {
  if (dialect === 'postgres') {
    const { inserted, ...project } = (await upsertQuery(db, w)).rows[0]!;
    return { project, created: inserted };
  }
  const inserted = (await insertIfNewQuery(db, w)).rows[0];
  if (inserted) return { project: inserted, created: true };
  const updated = (await updateQuery(db, w)).rows[0];
  if (!updated) throw new Error(`project of registration ${w.registration_id} vanished during the submit`);
  return { project: updated, created: false };
}

/**
 * One page of the event's projects, first submitted first, with each team's name and status, the
 * last author, and the screening findings not checked yet (project_flags_finding_uq's index). Read
 * in (first_submitted_at, id) order through the (event_id, first_submitted_at, id) index.
 */
export async function projectsPage(db: Executor, q: { eventId: string; limit: number; after?: [string, string] }) {
  let query = db
    .selectFrom('projects')
    .innerJoin('registrations', 'registrations.id', 'projects.registration_id')
    .leftJoin('users as author', 'author.id', 'projects.updated_by_user_id')
    .selectAll('projects')
    .select(['registrations.team_name', 'registrations.status as registration_status', 'author.name as author_name', 'author.email as author_email'])
    .select((eb) =>
      eb
        .selectFrom('project_flags')
        .select((f) => f.fn.countAll<number | string>().as('n'))
        .whereRef('project_flags.project_id', '=', 'projects.id')
        .where('project_flags.status', '=', 'open')
        .as('open_flags'),
    )
    .where('projects.event_id', '=', q.eventId);
  const after = q.after;
  if (after) query = query.where((eb) => eb(eb.refTuple('projects.first_submitted_at', 'projects.id'), '>', eb.tuple(after[0], after[1])));
  return query.orderBy('projects.first_submitted_at', 'asc').orderBy('projects.id', 'asc').limit(q.limit).execute();
}
