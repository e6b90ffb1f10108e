import { SqliteAdapter, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // Ranking reads every succeeded review of an event (50,000 rows at 10,000 projects x 5 models).
    // On SQLite a covering index serves that read without visiting the wide rows (raw replies,
    // summaries): about 2-4x faster. PostgreSQL keeps large values out of line (TOAST), so its
    // rows stay narrow; and a btree entry there is capped near 2.7 kB, which a scores document
    // could exceed, so it keeps the existing (event_id, status) index.
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
    await db.schema
      .createIndex('reviews_ranking_idx')
      .on('reviews')
      .columns(['event_id', 'status', 'project_id', 'group_key', 'reviewer_kind', 'scores'])
      .execute();
  },
};
