import { sql, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // The site's Ed25519 keys that sign results bundles (src/results/result-signing.ts). One is
    // current (is_current = 1; retired keys hold NULL, and NULLs never collide), so two
    // publications that both make the first key at once cannot leave two current keys: the
    // second insert meets the unique constraint. Retired keys stay, their public halves published
    // at /.well-known/hackathon-results-keys.json, so the bundles they signed still verify.
    await db.schema
      .createTable('result_signing_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('algorithm', 'text', (c) => c.notNull())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('private_key', 'text', (c) => c.notNull())
      .addColumn('is_current', 'integer', (c) => c.check(sql`is_current = 1`))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('retired_at', 'text')
      .addUniqueConstraint('result_signing_keys_one_current', ['is_current'])
      .execute();
  },
};
