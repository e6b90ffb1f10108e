import type { Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // An organizer's announcement to a segment of an event's people (src/announcements). The row is
    // also its own job on the core leased queue (core/job-queue.ts): a scheduled one waits `queued`
    // until next_attempt_at (= publish_at), is leased `running`, and is stamped `published` in the
    // transaction that queues its mails; `cancelled` before that.
    await db.schema
      .createTable('announcements')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('segment', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('publish_at', 'text')
      .addColumn('published_at', 'text')
      .addColumn('recipients', 'integer')
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('cancelled_at', 'text')
      .addColumn('cancelled_by', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text')
      .addColumn('lease_owner', 'text')
      .addColumn('lease_expires_at', 'text')
      .execute();
    await db.schema.createIndex('announcements_event_idx').on('announcements').columns(['event_id', 'created_at']).execute();
    await db.schema.createIndex('announcements_due_idx').on('announcements').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('announcements_lease_idx').on('announcements').columns(['status', 'lease_expires_at']).execute();
    // Who an announcement went to: one row per person (the key makes "exactly once" a constraint),
    // written with the mails; a reader's list of announcements is read from here.
    await db.schema
      .createTable('announcement_recipients')
      .addColumn('announcement_id', 'text', (c) => c.notNull().references('announcements.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('announcement_recipients_pk', ['announcement_id', 'user_id'])
      .execute();
    await db.schema.createIndex('announcement_recipients_user_idx').on('announcement_recipients').columns(['user_id', 'event_id']).execute();
  },
};
