import { SqliteAdapter, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // An event's cover image and logo, uploaded by its organizers: the validated bytes themselves
    // (bytea on PostgreSQL, blob on SQLite), served from here with their checked type.
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    await db.schema
      .createTable('event_media')
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('bytes', sqlite ? 'blob' : 'bytea', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('event_media_pk', ['event_id', 'kind'])
      .execute();
    // The event row names the current version of each (a prefix of its sha256), so the event's
    // cached representation carries `cover_url` / `logo_url` without reading the bytes' table.
    await db.schema.alterTable('events').addColumn('cover_version', 'text').execute();
    await db.schema.alterTable('events').addColumn('logo_version', 'text').execute();
  },
};
