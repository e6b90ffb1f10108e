import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // The IANA zone the organizer reads and types the deadlines in (the deadlines stay UTC
    // instants); null for events made before, or by clients that never said.
    await db.schema.alterTable('events').addColumn('time_zone', 'text').execute();
  },
};
