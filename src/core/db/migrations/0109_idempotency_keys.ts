import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // Idempotency-Key records. The primary key is the unique constraint that decides, across
    // processes, which of two requests with one key runs; the others replay or wait.
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('route', 'text', (c) => c.notNull())
      .addColumn('idem_key', 'text', (c) => c.notNull())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('lock_token', 'text', (c) => c.notNull())
      .addColumn('locked_until', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('response_status', 'integer')
      .addColumn('response_headers', 'text')
      .addColumn('response_body', 'text')
      .addPrimaryKeyConstraint('idempotency_keys_pkey', ['user_id', 'route', 'idem_key'])
      .execute();
    // The purge deletes the oldest expired rows a bounded batch at a time.
    await db.schema.createIndex('idempotency_keys_expires_idx').on('idempotency_keys').column('expires_at').execute();
  },
};
