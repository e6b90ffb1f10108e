import { type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // How human reviewers are given projects: 'every' (each reviewer reviews every project) or
    // 'assigned' (k = reviewers_per_project each, spread evenly); and whether a reviewer sharing
    // an e-mail domain with a team member counts as a conflict of interest.
    await db.schema
      .alterTable('events')
      .addColumn('review_mode', 'text', (c) => c.notNull().defaultTo('every'))
      .execute();
    await db.schema.alterTable('events').addColumn('reviewers_per_project', 'integer').execute();
    await db.schema
      .alterTable('events')
      .addColumn('conflict_same_domain', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // One row per (project, reviewer) pair to review; the unique pair makes concurrent top-ups
    // unable to assign a reviewer twice. source: 'auto' (the balancing rule) or 'manual'.
    await db.schema
      .createTable('review_assignments')
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('reviewer_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('review_assignments_project_reviewer_uq', ['project_id', 'reviewer_id'])
      .execute();
    await db.schema.createIndex('review_assignments_event_reviewer_idx').on('review_assignments').columns(['event_id', 'reviewer_id']).execute();
    await db.schema.createIndex('review_assignments_event_project_idx').on('review_assignments').columns(['event_id', 'project_id']).execute();
    // Declared conflicts of interest: a reviewer's own declaration or an organizer's record.
    await db.schema
      .createTable('reviewer_conflicts')
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('reviewer_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('declared_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('reviewer_conflicts_pk', ['project_id', 'reviewer_id'])
      .execute();
    await db.schema.createIndex('reviewer_conflicts_event_idx').on('reviewer_conflicts').columns(['event_id', 'reviewer_id']).execute();
  },
};
