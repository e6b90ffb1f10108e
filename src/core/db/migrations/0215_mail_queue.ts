import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // The durable notification mail queue: one row per rendered mail, written in the same
    // transaction as the change it tells of. queued -> running (leased) -> sent | failed.
    await db.schema
      .createTable('mail_queue')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text')
      .addColumn('user_id', 'text')
      .addColumn('to_address', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('text_body', 'text', (c) => c.notNull())
      .addColumn('html_body', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text')
      .addColumn('lease_owner', 'text')
      .addColumn('lease_expires_at', 'text')
      .addColumn('last_error', 'text')
      // Set at the first failed attempt: retries stop (failed) once it has passed.
      .addColumn('give_up_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text')
      .execute();
    await db.schema.createIndex('mail_queue_due_idx').on('mail_queue').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('mail_queue_lease_idx').on('mail_queue').columns(['status', 'lease_expires_at']).execute();
  },
};
