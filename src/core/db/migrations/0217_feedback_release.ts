import { sql, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // Whether a published event's teams may read their reviews (scores and comments, reviewers
    // unnamed): chosen at publication and switched afterwards by the organizer.
    await db.schema
      .alterTable('events')
      .addColumn('feedback_released', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // A team finds its own entry of the frozen result by its project.
    await db.schema.alterTable('result_entries').addColumn('project_id', 'text').execute();
    for (;;) {
      const rows = await sql<{ event_id: string; position: number | string; entry_tail: string }>`
        select event_id, position, entry_tail from result_entries where project_id is null limit 500`.execute(db);
      if (rows.rows.length === 0) break;
      for (const r of rows.rows) {
        // The stored tail starts `,"project_id":"…",` (see entryTail in results-service.ts).
        const id = (JSON.parse(`{${r.entry_tail.slice(1)}`) as { project_id: string }).project_id;
        await sql`update result_entries set project_id = ${id} where event_id = ${r.event_id} and position = ${Number(r.position)}`.execute(db);
      }
    }
    await db.schema.createIndex('result_entries_project_idx').on('result_entries').columns(['event_id', 'project_id']).execute();
  },
};
