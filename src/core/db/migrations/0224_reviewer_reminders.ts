import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // The last reminder mail an organizer sent a reviewer of an event: at most one a day, enforced
    // by a conditional upsert on this row (see reviewers-repo.claimReminder).
    await db.schema
      .createTable('reviewer_reminders')
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('last_sent_at', 'text', (c) => c.notNull())
      .addColumn('last_sent_by', 'text', (c) => c.notNull())
      .addColumn('open_reviews', 'integer', (c) => c.notNull())
      .addColumn('reminders_sent', 'integer', (c) => c.notNull().defaultTo(1))
      .addPrimaryKeyConstraint('reviewer_reminders_pk', ['event_id', 'user_id'])
      .execute();
  },
};
