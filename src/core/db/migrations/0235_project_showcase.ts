import { SqliteAdapter, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // What a project shows besides its description: a one-line tagline, "built with" tags
    // (normalised, a JSON array of strings) and up to five screenshots. The project row names the
    // screenshots in display order (a JSON array of {id, v, width, height}; `v` a prefix of the
    // sha256), so every read of a project (gallery cards, pages, the team's own) carries them without
    // touching the bytes' table, and a submit keeps writing one row.
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    await db.schema.alterTable('projects').addColumn('tagline', 'text').execute();
    await db.schema
      .alterTable('projects')
      .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema
      .alterTable('projects')
      .addColumn('screenshots', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema
      .createTable('project_screenshots')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('bytes', sqlite ? 'blob' : 'bytea', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('project_screenshots_pk', ['project_id', 'id'])
      .execute();
  },
};
