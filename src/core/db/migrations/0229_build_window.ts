import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // When hacking starts (build-window checks compare a repository's creation and first commit
    // with it); null: the registration deadline.
    await db.schema.alterTable('events').addColumn('hacking_starts_at', 'text').execute();
    // A project's build-window check: the github_url the last completed check was for (a changed
    // URL, or none yet, makes the project due), and when a skipped check (GitHub rate-limited or
    // unreachable) is tried again.
    await db.schema.alterTable('projects').addColumn('build_window_url', 'text').execute();
    await db.schema.alterTable('projects').addColumn('build_window_retry_at', 'text').execute();
    // …and the hacking start it was compared with: a moved start makes the project due again.
    await db.schema.alterTable('projects').addColumn('build_window_start', 'text').execute();
    // What the GitHub API said about a repository (creation, fork, oldest commit, commit sizes),
    // per lower-cased owner/repo, so projects and processes share one read for a while.
    await db.schema
      .createTable('github_repo_facts')
      .addColumn('repo_key', 'text', (c) => c.primaryKey())
      .addColumn('facts', 'text', (c) => c.notNull())
      .addColumn('fetched_at', 'text', (c) => c.notNull())
      .execute();
  },
};
