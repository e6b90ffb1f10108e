import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // A rejected team may re-apply (the same row goes back to pending) unless the organizer
    // rejected it as final; `attempt` counts the applications, `reapplied_at` dates the latest.
    await db.schema
      .alterTable('registrations')
      .addColumn('rejected_final', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('registrations')
      .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.alterTable('registrations').addColumn('reapplied_at', 'text').execute();
  },
};
