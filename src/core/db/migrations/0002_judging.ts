import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // Set once, by whichever process first sees the event in judging: the claim that makes the
    // "start AI reviews" side effect happen exactly once.
    await db.schema.alterTable('events').addColumn('judging_started_at', 'text').execute();

    // One row per project x reviewer (an AI model or a human). AI rows are also the job queue:
    // queued -> running (leased) -> succeeded | failed; an expired lease is claimable again.
    await db.schema
      .createTable('reviews')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('reviewer_kind', 'text', (c) => c.notNull())
      .addColumn('reviewer', 'text', (c) => c.notNull())
      .addColumn('group_key', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('scores', 'text')
      .addColumn('summary', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('next_attempt_at', 'text')
      .addColumn('lease_owner', 'text')
      .addColumn('lease_expires_at', 'text')
      .addColumn('latency_ms', 'integer')
      .addColumn('input_tokens', 'integer')
      .addColumn('output_tokens', 'integer')
      .addColumn('raw_reply', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('completed_at', 'text')
      .addUniqueConstraint('reviews_project_reviewer_uq', ['project_id', 'reviewer'])
      .execute();
    await db.schema.createIndex('reviews_event_idx').on('reviews').columns(['event_id', 'status']).execute();
    await db.schema.createIndex('reviews_queue_idx').on('reviews').columns(['status', 'next_attempt_at']).execute();

    await db.schema
      .createTable('event_reviewers')
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('event_reviewers_pk', ['event_id', 'user_id'])
      .execute();

    await db.schema
      .createTable('reviewer_invitations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull())
      .addColumn('invited_by', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('accepted_at', 'text')
      .addColumn('accepted_by', 'text')
      .addUniqueConstraint('reviewer_invitations_token_uq', ['token_hash'])
      .execute();
    await db.schema.createIndex('reviewer_invitations_event_idx').on('reviewer_invitations').column('event_id').execute();

    // A published ranking, frozen: later review changes cannot alter it.
    await db.schema
      .createTable('results')
      .addColumn('event_id', 'text', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
      .addColumn('published_at', 'text', (c) => c.notNull())
      .addColumn('published_by', 'text', (c) => c.notNull())
      .addColumn('entries', 'text', (c) => c.notNull())
      .addColumn('etag', 'text', (c) => c.notNull())
      .execute();
  },
};
