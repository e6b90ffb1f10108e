import type { ExpressionBuilder } from 'kysely';
import type { Executor } from '../core/db/index.js';
import type { Database } from '../core/db/schema.js';

/** What a build-window check reads of a due project. */
const DUE_COLUMNS = [
  'projects.id',
  'projects.event_id',
  'projects.registration_id',
  'projects.github_url',
  'projects.build_window_url',
  'projects.build_window_start',
  'projects.build_window_repo',
] as const;

/** A skipped check's retry time has come (or there is none). */
const retryDue = (now: string) => (eb: ExpressionBuilder<Database, 'projects'>) =>
  eb.or([eb('projects.build_window_retry_at', 'is', null), eb('projects.build_window_retry_at', '<=', now)]);

/**
 * Up to `limit` projects of running events never checked or whose URL changed since their last
 * check, whose retry time has come, oldest change first, with their event's hacking start: the rows
 * of the projects_build_window_due_idx partial index.
 */
export async function changedProjects(db: Executor, now: string, limit: number) {
  return (
    db
      .selectFrom('projects')
      .innerJoin('events', 'events.id', 'projects.event_id')
      .select([...DUE_COLUMNS, 'events.hacking_starts_at', 'events.registration_deadline'])
      .where('events.status', 'not in', ['cancelled', 'ended'])
      // The partial index's predicate, verbatim (migration 0230).
      .where((eb) =>
        eb.or([
          eb('projects.build_window_url', 'is', null),
          eb('projects.build_window_url', '!=', eb.ref('projects.github_url')),
          eb('projects.build_window_start', 'is', null),
        ]),
      )
      .where(retryDue(now))
      .orderBy('projects.updated_at')
      .orderBy('projects.id')
      .limit(limit)
      .execute()
  );
}

/** The events neither cancelled nor ended, with what their hacking start is computed from. */
export async function runningEvents(db: Executor) {
  return db.selectFrom('events').select(['id', 'hacking_starts_at', 'registration_deadline']).where('status', 'not in', ['cancelled', 'ended']).execute();
}

/** The least and greatest hacking start the event's projects were last checked against (the (event_id, build_window_start) index). */
export async function checkedStartSpan(db: Executor, eventId: string) {
  return db
    .selectFrom('projects')
    .select((eb) => [eb.fn.min('build_window_start').as('lo'), eb.fn.max('build_window_start').as('hi')])
    .where('event_id', '=', eventId)
    .executeTakeFirst();
}

/** Up to `limit` projects of the event checked against a start before (`<`) or after (`>`) `start`, whose retry time has come: one index range. */
export async function projectsCheckedAgainst(db: Executor, o: { eventId: string; side: '<' | '>'; start: string; now: string; limit: number }) {
  return db
    .selectFrom('projects')
    .select(DUE_COLUMNS)
    .where('projects.event_id', '=', o.eventId)
    .where('projects.build_window_start', o.side, o.start)
    .where(retryDue(o.now))
    .orderBy('projects.build_window_start')
    .limit(o.limit)
    .execute();
}

/** A repository's cached facts (JSON) and when they were fetched, if any. */
export async function readRepoFacts(db: Executor, key: string) {
  return db.selectFrom('github_repo_facts').select(['facts', 'fetched_at']).where('repo_key', '=', key).executeTakeFirst();
}

/** Stores (or replaces) a repository's facts (JSON). */
export async function storeRepoFacts(db: Executor, key: string, json: string, now: string): Promise<void> {
  await db
    .insertInto('github_repo_facts')
    .values({ repo_key: key, facts: json, fetched_at: now })
    .onConflict((oc) => oc.column('repo_key').doUpdateSet({ facts: json, fetched_at: now }))
    .execute();
}

/** Records the project's normalised repository (projects.build_window_repo). */
export async function setBuildWindowRepo(db: Executor, projectId: string, key: string | null): Promise<void> {
  await db.updateTable('projects').set({ build_window_repo: key }).where('id', '=', projectId).execute();
}

/** Records a completed check: the URL and start it was made for, no retry pending; unless the URL changed meanwhile (it then stays due). */
export async function markChecked(db: Executor, o: { projectId: string; githubUrl: string | null; start: string }): Promise<void> {
  await db
    .updateTable('projects')
    .set({ build_window_url: o.githubUrl, build_window_start: o.start, build_window_retry_at: null })
    .where('id', '=', o.projectId)
    // Changed again meanwhile: stays due for the new URL.
    .where('github_url', '=', o.githubUrl)
    .execute();
}

/** When a skipped check of the project is tried again. */
export async function setRetryAt(db: Executor, projectId: string, at: string): Promise<void> {
  await db.updateTable('projects').set({ build_window_retry_at: at }).where('id', '=', projectId).execute();
}

/** Deletes the project's open flag with this evidence key, if any. */
export async function deleteOpenFlag(db: Executor, projectId: string, evidenceKey: string): Promise<void> {
  await db.deleteFrom('project_flags').where('project_id', '=', projectId).where('evidence_key', '=', evidenceKey).where('status', '=', 'open').execute();
}

/** The project's open build_window flags (one indexed read of its own flags). */
export async function openBuildWindowFlags(db: Executor, projectId: string) {
  return db
    .selectFrom('project_flags')
    .select(['id', 'evidence_key'])
    .where('project_id', '=', projectId)
    .where('kind', '=', 'build_window')
    .where('status', '=', 'open')
    .execute();
}

/** Deletes these flags. */
export async function deleteFlags(db: Executor, ids: readonly string[]): Promise<void> {
  await db.deleteFrom('project_flags').where('id', 'in', ids).execute();
}

/**
 * The other projects of the event whose checked repository is `key` (at most `limit`, oldest first),
 * with their team: one range of the (event_id, build_window_repo) index.
 */
export async function sameRepo(db: Executor, eventId: string, key: string, except: string | null, limit: number) {
  let q = db
    .selectFrom('projects')
    .innerJoin('registrations', 'registrations.id', 'projects.registration_id')
    .select(['projects.id', 'projects.project_name', 'registrations.team_name'])
    .where('projects.event_id', '=', eventId)
    .where('projects.build_window_repo', '=', key);
  if (except !== null) q = q.where('projects.id', '!=', except);
  return q.orderBy('projects.id').limit(limit).execute();
}

/** How many projects of the event other than `except` have the checked repository `key`. */
export async function countSameRepo(db: Executor, eventId: string, key: string, except: string): Promise<number> {
  return Number(
    (
      await db
        .selectFrom('projects')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('event_id', '=', eventId)
        .where('build_window_repo', '=', key)
        .where('id', '!=', except)
        .executeTakeFirst()
    )?.n ?? 0,
  );
}
