import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // What screening found in a project's submission (text addressed to the evaluator, …): the
    // passage as evidence, and the organizer's review of it. One row per finding:
    // evidence_key is a digest of kind, source and evidence, so re-screening on every review
    // attempt never duplicates one.
    await db.schema
      .createTable('project_flags')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('evidence', 'text', (c) => c.notNull())
      .addColumn('detail', 'text')
      .addColumn('evidence_key', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
      .addColumn('note', 'text')
      .addColumn('checked_by', 'text')
      .addColumn('checked_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('project_flags_finding_uq', ['project_id', 'evidence_key'])
      .execute();
    await db.schema.createIndex('project_flags_event_idx').on('project_flags').columns(['event_id', 'project_id']).execute();
  },
};
