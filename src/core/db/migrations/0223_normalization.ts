import { SqliteAdapter, sql, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // How reviewers' scores are made comparable before they are averaged: 'none' (raw, the
    // default) or 'zscore' (src/results/normalization.ts). Changeable until publication.
    await db.schema
      .alterTable('events')
      .addColumn('normalization', 'text', (c) => c.notNull().defaultTo('none'))
      .execute();
    // The raw score beside the ranking key (score_key, which under zscore is the normalised
    // score), in 10^-4 units, -1 when unscored: the leaderboard shows both side by side.
    await db.schema
      .alterTable('standings')
      .addColumn('raw_score_key', 'integer', (c) => c.notNull().defaultTo(-1))
      .execute();
    // Rows computed before this column existed hold no raw key yet: recompute them.
    await sql`update standings set stale = 1, version = version + 1`.execute(db);
    // Switching the normalisation changes every number of the event: its standings go stale in
    // the same transaction, like an edit of the dimensions (standings_event_upd, 0106).
    const bump = 'update standings set stale = 1, version = version + 1 where event_id = NEW.id;';
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await sql
        .raw(
          `create trigger standings_event_norm_upd after update of normalization on events for each row when OLD.normalization IS NOT NEW.normalization begin ${bump} end`,
        )
        .execute(db);
    } else {
      await sql.raw(`create function standings_event_norm_upd_fn() returns trigger language plpgsql as $$ begin ${bump} return null; end $$`).execute(db);
      await sql
        .raw(
          'create trigger standings_event_norm_upd after update of normalization on events for each row when (OLD.normalization IS DISTINCT FROM NEW.normalization) execute function standings_event_norm_upd_fn()',
        )
        .execute(db);
    }
    // Which normalisation a published result used.
    await db.schema
      .alterTable('results')
      .addColumn('normalization', 'text', (c) => c.notNull().defaultTo('none'))
      .execute();
  },
};
