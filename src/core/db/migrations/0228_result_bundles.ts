import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // The verifiable results bundle, built in the publication's transaction and never changed:
    // its canonical JSON text (RFC 8785) and that text's SHA-256 without the `sha256` member.
    await db.schema
      .createTable('result_bundles')
      .addColumn('event_id', 'text', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
      .addColumn('bundle', 'text', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
};
