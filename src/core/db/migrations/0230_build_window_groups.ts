import { sql, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // The duplicate-repository check reads the projects of one repository, not every project of
    // the event: the lower-cased owner/repo of the URL last checked, indexed with the event.
    await db.schema.alterTable('projects').addColumn('build_window_repo', 'text').execute();
    await db.schema.createIndex('projects_build_window_repo_idx').on('projects').columns(['event_id', 'build_window_repo']).execute();
    // A pass reads only the due projects: never checked or changed URL (this partial index holds
    // exactly those) …
    await sql`create index projects_build_window_due_idx on projects (updated_at, id) where build_window_url is null or build_window_url <> github_url or build_window_start is null`.execute(
      db,
    );
    // … and, per event, the hacking start its projects were compared with (min and max, then the
    // ranges that differ from the event's start).
    await db.schema.createIndex('projects_build_window_start_idx').on('projects').columns(['event_id', 'build_window_start']).execute();
    // Duplicate flags become one per project (not one per pair): the open pair flags go, and every
    // checked project is checked once more (usually from the cached facts) to record its repository
    // and its new flag. Flags an organizer marked checked stay as the record of what they saw.
    await db.deleteFrom('project_flags').where('source', '=', 'duplicate_repository').where('status', '=', 'open').execute();
    await db.updateTable('projects').set({ build_window_start: null }).where('build_window_url', 'is not', null).execute();
  },
};
