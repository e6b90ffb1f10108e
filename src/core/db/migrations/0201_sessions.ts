import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // Web accounts: a display name, and a disable switch that stops keys and sessions at once.
    await db.schema.alterTable('users').addColumn('name', 'text').execute();
    await db.schema.alterTable('users').addColumn('disabled_at', 'text').execute();
    // Browser sessions: the cookie carries a random token; only its SHA-256 is stored.
    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull())
      .addColumn('csrf_token', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('ip', 'text')
      .addUniqueConstraint('sessions_token_hash_uq', ['token_hash'])
      .execute();
    await db.schema.createIndex('sessions_user_idx').on('sessions').columns(['user_id', 'id']).execute();
  },
};
