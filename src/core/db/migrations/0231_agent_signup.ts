import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // An agent's sign-up (POST /agents/signup) with e-mail confirmation makes the account at once,
    // unconfirmed: its key works only for the status long-poll and its own rotation and revocation
    // until the owner opens the mailed link. Null for every account made before (all confirmed).
    await db.schema.alterTable('users').addColumn('unconfirmed_since', 'text').execute();
    // The link of such an account is a sign-up request that names the account it confirms (the
    // other requests make their account at the link and name none).
    await db.schema.alterTable('signup_requests').addColumn('user_id', 'text').execute();
    await db.schema.createIndex('signup_requests_user_idx').on('signup_requests').column('user_id').execute();
  },
};
