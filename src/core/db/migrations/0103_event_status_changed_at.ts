import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // When an organizer last moved the stored status (PATCH), so a closed window can say
    // "closed early by the organizer on <date>". Null for events moved before this column existed.
    await db.schema.alterTable('events').addColumn('status_changed_at', 'text').execute();
  },
};
