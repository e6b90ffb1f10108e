import type { Selectable } from 'kysely';
import type { Executor } from '../core/db/index.js';
import type { ProjectScreenshotsTable } from '../core/db/schema.js';

/** The team's project (by its registration): what the screenshot routes need of it. */
export async function teamProject(db: Executor, registrationId: string) {
  return db
    .selectFrom('projects')
    .select(['id', 'event_id', 'registration_id', 'screenshots'])
    .where('registration_id', '=', registrationId)
    .executeTakeFirst();
}

/** A project of the event, by id. */
export async function eventProject(db: Executor, eventId: string, projectId: string) {
  return db
    .selectFrom('projects')
    .select(['id', 'event_id', 'registration_id', 'screenshots'])
    .where('id', '=', projectId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
}

/** The project's current screenshots column (read in the transaction that changes it). */
export async function screenshotsOf(db: Executor, projectId: string): Promise<string | undefined> {
  return (await db.selectFrom('projects').select('screenshots').where('id', '=', projectId).executeTakeFirst())?.screenshots;
}

/**
 * Sets the project's screenshots only if they are still `expected` (what this transaction read):
 * a concurrent change makes it write nothing (false), and the caller reads again. Two uploads at
 * once therefore cannot both add a fifth.
 */
export async function swapScreenshots(db: Executor, q: { projectId: string; expected: string; next: string; now: string; userId: string }): Promise<boolean> {
  const res = await db
    .updateTable('projects')
    .set({ screenshots: q.next, updated_at: q.now, updated_by_user_id: q.userId })
    .where('id', '=', q.projectId)
    .where('screenshots', '=', q.expected)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function insertScreenshot(db: Executor, row: Selectable<ProjectScreenshotsTable>): Promise<void> {
  await db.insertInto('project_screenshots').values(row).execute();
}

export async function deleteScreenshot(db: Executor, projectId: string, id: string): Promise<void> {
  await db.deleteFrom('project_screenshots').where('project_id', '=', projectId).where('id', '=', id).execute();
}

export async function findScreenshot(db: Executor, projectId: string, id: string) {
  return db.selectFrom('project_screenshots').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

/**
 * The tags of the event's projects with how many projects use each, most used first: the editor's
 * suggestions. Projects of approved teams only (what the gallery shows).
 */
export async function eventTags(db: Executor, eventId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('projects')
    .innerJoin('registrations', 'registrations.id', 'projects.registration_id')
    .select('projects.tags')
    .where('projects.event_id', '=', eventId)
    .where('registrations.status', '=', 'approved')
    .where('projects.tags', '<>', '[]')
    .execute();
  return rows.map((r) => r.tags);
}
