import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // What a key may do: 'full' (everything its user may) or 'review' (the reviewer routes only,
    // for keys issued by accepting an invitation). Every key made before is a full one.
    await db.schema
      .alterTable('api_keys')
      .addColumn('scope', 'text', (c) => c.notNull().defaultTo('full'))
      .execute();
  },
};
