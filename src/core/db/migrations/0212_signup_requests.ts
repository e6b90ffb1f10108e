import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // Sign-ups waiting for their e-mail confirmation: the account is made when the link is opened,
    // so the sign-up answer is the same for a new and an existing address.
    await db.schema
      .createTable('signup_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('invite_code_hash', 'text')
      .addColumn('token_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addUniqueConstraint('signup_requests_token_hash_uq', ['token_hash'])
      .execute();
    await db.schema.createIndex('signup_requests_expires_idx').on('signup_requests').column('expires_at').execute();
  },
};
