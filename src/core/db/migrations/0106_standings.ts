import { SqliteAdapter, sql, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    // One row per project: its numbers as the ranking computes them (score_key is the score in
    // 10^-4 units, -1 when unscored), so a leaderboard page is an index range, not a recomputation
    // of every project. Triggers below mark a row stale (and bump its version) in the same
    // transaction as any write that changes what the row is computed from; readers recompute the
    // stale rows only. A row is written back only if its version did not move meanwhile.
    await db.schema
      .createTable('standings')
      .addColumn('project_id', 'text', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('stale', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('judged', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('track_id', 'text')
      .addColumn('first_submitted_at', 'text', (c) => c.notNull())
      .addColumn('score_key', 'integer', (c) => c.notNull().defaultTo(-1))
      .addColumn('by_model', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('by_dimension', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('model_groups', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('reviews_expected', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('reviews_succeeded', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('reviews_failed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('reviews_pending', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('reviews_human', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`create index standings_rank_idx on standings (event_id, judged, score_key desc, first_submitted_at, project_id)`.execute(db);
    await sql`create index standings_track_idx on standings (event_id, track_id, judged, score_key desc, first_submitted_at, project_id)`.execute(db);
    await sql`create index standings_stale_idx on standings (event_id, stale)`.execute(db);
    await sql`insert into standings (project_id, event_id, first_submitted_at) select id, event_id, first_submitted_at from projects`.execute(db);

    // The frozen result, one row per entry (its JSON after the rank), so a page is read without
    // parsing the whole result. Track pages use the per-track position and rank fixed at publication.
    await db.schema
      .createTable('result_entries')
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('rank', 'integer', (c) => c.notNull())
      .addColumn('track_id', 'text')
      .addColumn('track_position', 'integer')
      .addColumn('track_rank', 'integer')
      .addColumn('entry_tail', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('result_entries_pk', ['event_id', 'position'])
      .execute();
    await db.schema.createIndex('result_entries_track_idx').on('result_entries').columns(['event_id', 'track_id', 'track_position']).execute();
    // Results published before: their entries move to rows, and the whole-array column is emptied
    // (on SQLite reading the small `etag` column after it meant walking its overflow pages).
    // Each row keeps its entry's exact JSON; the snapshot's tag does not change.
    const published = await db.selectFrom('results').select(['event_id', 'entries']).execute();
    for (const r of published as Array<{ event_id: string; entries: string }>) {
      const entries = JSON.parse(r.entries) as Array<{ rank: number; track_id: string | null } & Record<string, unknown>>;
      const tracks = new Map<string, { position: number; prevOverall: number; rank: number }>();
      const rows = entries.map((e, position) => {
        const { rank, ...rest } = e;
        let trackPosition: number | null = null;
        let trackRank: number | null = null;
        if (e.track_id !== null) {
          let t = tracks.get(e.track_id);
          if (!t) tracks.set(e.track_id, (t = { position: 0, prevOverall: -1, rank: 0 }));
          if (t.position === 0 || rank !== t.prevOverall) t.rank = t.position + 1;
          t.prevOverall = rank;
          trackPosition = t.position++;
          trackRank = t.rank;
        }
        return {
          event_id: r.event_id,
          position,
          rank,
          track_id: e.track_id,
          track_position: trackPosition,
          track_rank: trackRank,
          entry_tail: `,${JSON.stringify(rest).slice(1)}`,
        };
      });
      for (let i = 0; i < rows.length; i += 500)
        await db
          .insertInto('result_entries')
          .values(rows.slice(i, i + 500))
          .execute();
      await db.updateTable('results').set({ entries: '' }).where('event_id', '=', r.event_id).execute();
    }

    const bump = (where: string) => `update standings set stale = 1, version = version + 1 where ${where};`;
    // `statement`: on PostgreSQL, inserts and deletes fire once per statement over the transition
    // table, so a bulk insert (judging start queues a review per project × model) costs one
    // UPDATE, not one per row. SQLite has row triggers only; they run in-process and are cheap.
    const triggers: Array<{ name: string; on: string; when: string; body: string; statement?: { table: string; body: string } }> = [
      {
        name: 'standings_project_ins',
        on: 'after insert on projects',
        when: '',
        body: 'insert into standings (project_id, event_id, first_submitted_at) values (NEW.id, NEW.event_id, NEW.first_submitted_at);',
        statement: {
          table: 'new table as changed',
          body: 'insert into standings (project_id, event_id, first_submitted_at) select id, event_id, first_submitted_at from changed;',
        },
      },
      {
        name: 'standings_project_upd',
        on: 'after update of track_id, first_submitted_at, registration_id on projects',
        when: 'OLD.track_id IS DISTINCT FROM NEW.track_id OR OLD.first_submitted_at IS DISTINCT FROM NEW.first_submitted_at OR OLD.registration_id IS DISTINCT FROM NEW.registration_id',
        body: bump('project_id = NEW.id'),
      },
      {
        name: 'standings_registration_upd',
        on: 'after update of status on registrations',
        when: 'OLD.status IS DISTINCT FROM NEW.status',
        body: bump('project_id in (select id from projects where registration_id = NEW.id)'),
      },
      {
        name: 'standings_review_ins',
        on: 'after insert on reviews',
        when: '',
        body: bump('project_id = NEW.project_id'),
        statement: { table: 'new table as changed', body: bump('project_id in (select project_id from changed)') },
      },
      {
        name: 'standings_review_upd',
        on: 'after update of status, scores, group_key, reviewer_kind, project_id on reviews',
        when: 'OLD.status IS DISTINCT FROM NEW.status OR OLD.scores IS DISTINCT FROM NEW.scores OR OLD.group_key IS DISTINCT FROM NEW.group_key OR OLD.reviewer_kind IS DISTINCT FROM NEW.reviewer_kind OR OLD.project_id IS DISTINCT FROM NEW.project_id',
        body: bump('project_id in (NEW.project_id, OLD.project_id)'),
      },
      {
        name: 'standings_review_del',
        on: 'after delete on reviews',
        when: '',
        body: bump('project_id = OLD.project_id'),
        statement: { table: 'old table as changed', body: bump('project_id in (select project_id from changed)') },
      },
      {
        name: 'standings_event_upd',
        on: 'after update of dimensions, models on events',
        when: 'OLD.dimensions IS DISTINCT FROM NEW.dimensions OR OLD.models IS DISTINCT FROM NEW.models',
        body: bump('event_id = NEW.id'),
      },
    ];
    for (const t of triggers) {
      if (sqlite) {
        // SQLite spells IS DISTINCT FROM as IS NOT.
        const when = t.when ? ` when ${t.when.replaceAll('IS DISTINCT FROM', 'IS NOT')}` : '';
        await sql.raw(`create trigger ${t.name} ${t.on} for each row${when} begin ${t.body} end`).execute(db);
      } else if (t.statement) {
        await sql.raw(`create function ${t.name}_fn() returns trigger language plpgsql as $$ begin ${t.statement.body} return null; end $$`).execute(db);
        await sql.raw(`create trigger ${t.name} ${t.on} referencing ${t.statement.table} for each statement execute function ${t.name}_fn()`).execute(db);
      } else {
        await sql.raw(`create function ${t.name}_fn() returns trigger language plpgsql as $$ begin ${t.body} return null; end $$`).execute(db);
        await sql.raw(`create trigger ${t.name} ${t.on} for each row${t.when ? ` when (${t.when})` : ''} execute function ${t.name}_fn()`).execute(db);
      }
    }
  },
};
