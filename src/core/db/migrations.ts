import { Kysely, Migrator, SqliteAdapter, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './schema.js';

/**
 * Versioned migrations, written once with Kysely's schema builder so they run on SQLite and
 * PostgreSQL alike. Append new ones; never edit one that has shipped. Each gets the database as
 * Kysely's `Migration` types it, `Kysely<any>`: a migration describes the schema as it was then,
 * not today's `Database` type.
 */
const migrations: Record<string, Migration> = {
  '0001_core': {
    async up(db) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('users_email_uq', ['email'])
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('revoked_at', 'text')
        .addColumn('last_used_at', 'text')
        .addUniqueConstraint('api_keys_hash_uq', ['key_hash'])
        .execute();
      await db.schema.createIndex('api_keys_user_idx').on('api_keys').column('user_id').execute();

      await db.schema
        .createTable('events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('registration_deadline', 'text', (c) => c.notNull())
        .addColumn('submission_deadline', 'text', (c) => c.notNull())
        .addColumn('result_announced_at', 'text')
        .addColumn('tracks', 'text', (c) => c.notNull())
        .addColumn('dimensions', 'text', (c) => c.notNull())
        .addColumn('models', 'text', (c) => c.notNull())
        .addColumn('registration_open', 'integer', (c) => c.notNull())
        .addColumn('auto_approve', 'integer', (c) => c.notNull())
        .addColumn('form_fields', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('events_status_idx').on('events').columns(['status', 'id']).execute();

      await db.schema
        .createTable('event_organizers')
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('event_organizers_pk', ['event_id', 'user_id'])
        .execute();
      await db.schema.createIndex('event_organizers_user_idx').on('event_organizers').column('user_id').execute();

      await db.schema
        .createTable('registrations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('team_name', 'text', (c) => c.notNull())
        .addColumn('team_name_key', 'text', (c) => c.notNull())
        .addColumn('track_id', 'text')
        .addColumn('contact_email', 'text', (c) => c.notNull())
        .addColumn('github_url', 'text')
        .addColumn('fields', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('registrations_event_user_uq', ['event_id', 'user_id'])
        .addUniqueConstraint('registrations_event_team_uq', ['event_id', 'team_name_key'])
        .execute();
      await db.schema.createIndex('registrations_event_status_idx').on('registrations').columns(['event_id', 'status']).execute();

      await db.schema
        .createTable('projects')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('registration_id', 'text', (c) => c.notNull().references('registrations.id').onDelete('cascade'))
        .addColumn('project_name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('github_url', 'text', (c) => c.notNull())
        .addColumn('project_website', 'text')
        .addColumn('demo_video_url', 'text')
        .addColumn('team_size', 'integer')
        .addColumn('track_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('review_status', 'text', (c) => c.notNull())
        .addColumn('first_submitted_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('projects_registration_uq', ['registration_id'])
        .execute();
      await db.schema.createIndex('projects_event_idx').on('projects').columns(['event_id', 'id']).execute();
    },
  },
  '0002_judging': {
    async up(db) {
      // Set once, by whichever process first sees the event in judging: the claim that makes the
      // "start AI reviews" side effect happen exactly once.
      await db.schema.alterTable('events').addColumn('judging_started_at', 'text').execute();

      // One row per project x reviewer (an AI model or a human). AI rows are also the job queue:
      // queued -> running (leased) -> succeeded | failed; an expired lease is claimable again.
      await db.schema
        .createTable('reviews')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('reviewer_kind', 'text', (c) => c.notNull())
        .addColumn('reviewer', 'text', (c) => c.notNull())
        .addColumn('group_key', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('scores', 'text')
        .addColumn('summary', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'text')
        .addColumn('next_attempt_at', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('lease_expires_at', 'text')
        .addColumn('latency_ms', 'integer')
        .addColumn('input_tokens', 'integer')
        .addColumn('output_tokens', 'integer')
        .addColumn('raw_reply', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('completed_at', 'text')
        .addUniqueConstraint('reviews_project_reviewer_uq', ['project_id', 'reviewer'])
        .execute();
      await db.schema.createIndex('reviews_event_idx').on('reviews').columns(['event_id', 'status']).execute();
      await db.schema.createIndex('reviews_queue_idx').on('reviews').columns(['status', 'next_attempt_at']).execute();

      await db.schema
        .createTable('event_reviewers')
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('event_reviewers_pk', ['event_id', 'user_id'])
        .execute();

      await db.schema
        .createTable('reviewer_invitations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addColumn('invited_by', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('accepted_at', 'text')
        .addColumn('accepted_by', 'text')
        .addUniqueConstraint('reviewer_invitations_token_uq', ['token_hash'])
        .execute();
      await db.schema.createIndex('reviewer_invitations_event_idx').on('reviewer_invitations').column('event_id').execute();

      // A published ranking, frozen: later review changes cannot alter it.
      await db.schema
        .createTable('results')
        .addColumn('event_id', 'text', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
        .addColumn('published_at', 'text', (c) => c.notNull())
        .addColumn('published_by', 'text', (c) => c.notNull())
        .addColumn('entries', 'text', (c) => c.notNull())
        .addColumn('etag', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0004_results_ranking_index': {
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
  },
  '0102_api_key_scope': {
    async up(db) {
      // What a key may do: 'full' (everything its user may) or 'review' (the reviewer routes only,
      // for keys issued by accepting an invitation). Every key made before is a full one.
      await db.schema
        .alterTable('api_keys')
        .addColumn('scope', 'text', (c) => c.notNull().defaultTo('full'))
        .execute();
    },
  },
  '0103_event_status_changed_at': {
    async up(db) {
      // When an organizer last moved the stored status (PATCH), so a closed window can say
      // "closed early by the organizer on <date>". Null for events moved before this column existed.
      await db.schema.alterTable('events').addColumn('status_changed_at', 'text').execute();
    },
  },
  '0105_organizer_list_indexes': {
    async up(db) {
      // Organizer lists page by keyset: each (filter, order) pair gets an index whose range is the
      // page, so a page costs the same at 100 rows as at 100,000.
      const idx = (name: string, table: string, columns: string[]) => db.schema.createIndex(name).on(table).columns(columns).execute();
      await idx('registrations_event_id_idx', 'registrations', ['event_id', 'id']);
      await idx('registrations_event_status_id_idx', 'registrations', ['event_id', 'status', 'id']);
      await idx('registrations_event_track_id_idx', 'registrations', ['event_id', 'track_id', 'id']);
      await idx('projects_event_submitted_idx', 'projects', ['event_id', 'first_submitted_at', 'id']);
      await idx('reviews_event_project_reviewer_idx', 'reviews', ['event_id', 'project_id', 'reviewer']);
      await idx('reviews_event_status_project_idx', 'reviews', ['event_id', 'status', 'project_id', 'reviewer']);
      // Counts a human reviewer's reviews in the reviewers list.
      await idx('reviews_event_kind_reviewer_idx', 'reviews', ['event_id', 'reviewer_kind', 'reviewer']);
      await idx('event_reviewers_event_created_idx', 'event_reviewers', ['event_id', 'created_at', 'user_id']);
      await db.schema
        .createIndex('reviewer_invitations_unused_idx')
        .on('reviewer_invitations')
        .columns(['event_id', 'id'])
        .where(sql.ref('accepted_at'), 'is', null)
        .execute();
      // The team-name search is a prefix range in code point order. SQLite's unique
      // (event_id, team_name_key) index already compares that way (BINARY); PostgreSQL's follows the
      // database collation, so it gets one in the "C" collation that the query asks for.
      if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
        await sql`create index registrations_event_team_c_idx on registrations (event_id, team_name_key collate "C")`.execute(db);
      }
    },
  },
  '0106_standings': {
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
  },
  '0107_events_public_pages_index': {
    async up(db) {
      // GET /events pages are keyset queries per stored status (events-repo listPublicEventIds):
      // status = ? AND id < ? ORDER BY id DESC, plus a deadline test for open and active events
      // (their effective status depends on the clock). Carrying both deadlines in the index lets
      // that test run on index entries alone; it supersedes (status, id).
      await db.schema
        .createIndex('events_status_id_deadlines_idx')
        .on('events')
        .columns(['status', 'id', 'registration_deadline', 'submission_deadline'])
        .execute();
      await db.schema.dropIndex('events_status_idx').execute();
    },
  },
  '0109_idempotency_keys': {
    async up(db) {
      // Idempotency-Key records. The primary key is the unique constraint that decides, across
      // processes, which of two requests with one key runs; the others replay or wait.
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('route', 'text', (c) => c.notNull())
        .addColumn('idem_key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('lock_token', 'text', (c) => c.notNull())
        .addColumn('locked_until', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_headers', 'text')
        .addColumn('response_body', 'text')
        .addPrimaryKeyConstraint('idempotency_keys_pkey', ['user_id', 'route', 'idem_key'])
        .execute();
      // The purge deletes the oldest expired rows a bounded batch at a time.
      await db.schema.createIndex('idempotency_keys_expires_idx').on('idempotency_keys').column('expires_at').execute();
    },
  },
  '0110_events_status_boundaries': {
    async up(db) {
      // GET /events remembers a filtered page until the next deadline at which some event's
      // effective status changes: the earliest future deadline per stored status, one index seek each.
      await db.schema.createIndex('events_status_registration_deadline_idx').on('events').columns(['status', 'registration_deadline']).execute();
      await db.schema.createIndex('events_status_submission_deadline_idx').on('events').columns(['status', 'submission_deadline']).execute();
    },
  },
  '0201_sessions': {
    async up(db) {
      // Web accounts: a display name, and a disable switch that stops keys and sessions at once.
      await db.schema.alterTable('users').addColumn('name', 'text').execute();
      await db.schema.alterTable('users').addColumn('disabled_at', 'text').execute();
      // Browser sessions: the cookie carries a random token; only its SHA-256 is stored.
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addColumn('csrf_token', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .addColumn('user_agent', 'text')
        .addColumn('ip', 'text')
        .addUniqueConstraint('sessions_token_hash_uq', ['token_hash'])
        .execute();
      await db.schema.createIndex('sessions_user_idx').on('sessions').columns(['user_id', 'id']).execute();
    },
  },
  '0202_invite_codes_password_resets': {
    async up(db) {
      await db.schema
        .createTable('invite_codes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('max_uses', 'integer', (c) => c.notNull())
        .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'text')
        .addColumn('revoked_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .addUniqueConstraint('invite_codes_hash_uq', ['code_hash'])
        .execute();
      await db.schema
        .createTable('password_resets')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addUniqueConstraint('password_resets_token_hash_uq', ['token_hash'])
        .execute();
      await db.schema.createIndex('password_resets_user_idx').on('password_resets').column('user_id').execute();
    },
  },
  '0203_standings_stale_walk': {
    async up(db) {
      // The refresh walks an event's stale standings in project-id order, a chunk at a time: the
      // index gives each chunk as a range instead of reading (and sorting) every stale row at once.
      await sql`drop index standings_stale_idx`.execute(db);
      await sql`create index standings_stale_idx on standings (event_id, stale, project_id)`.execute(db);
    },
  },
  '0204_event_time_zone': {
    async up(db) {
      // The IANA zone the organizer reads and types the deadlines in (the deadlines stay UTC
      // instants); null for events made before, or by clients that never said.
      await db.schema.alterTable('events').addColumn('time_zone', 'text').execute();
    },
  },
  '0209_registration_reapply': {
    async up(db) {
      // A rejected team may re-apply (the same row goes back to pending) unless the organizer
      // rejected it as final; `attempt` counts the applications, `reapplied_at` dates the latest.
      await db.schema
        .alterTable('registrations')
        .addColumn('rejected_final', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('registrations')
        .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema.alterTable('registrations').addColumn('reapplied_at', 'text').execute();
    },
  },
  '0210_webhooks': {
    async up(db) {
      // Webhook subscriptions. `events` is the subscribed kinds as ",kind,kind," so one LIKE picks
      // the matching rows; the secret is kept as issued (the server must sign with it) and never logged.
      await db.schema
        .createTable('webhooks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.references('events.id').onDelete('cascade'))
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('disabled_at', 'text')
        .addColumn('disabled_reason', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhooks_user_idx').on('webhooks').columns(['user_id', 'id']).execute();
      // The durable delivery queue: one row per (occurrence, subscription), written in the same
      // transaction as the change it reports. queued -> running (leased) -> delivered | failed.
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('lease_expires_at', 'text')
        .addColumn('last_status_code', 'integer')
        .addColumn('last_duration_ms', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('delivered_at', 'text')
        .execute();
      await db.schema.createIndex('webhook_deliveries_queue_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('webhook_deliveries_webhook_idx').on('webhook_deliveries').columns(['webhook_id', 'id']).execute();
    },
  },
  '0212_signup_requests': {
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
  },
  '0213_event_co_organizer_emails': {
    async up(db) {
      // Co-organizers are named by e-mail address, whether or not it has an account yet (naming one
      // must not tell whether the address has an account); event_organizers keeps the creators.
      await db.schema
        .createTable('event_co_organizers')
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('event_co_organizers_pkey', ['event_id', 'email'])
        .execute();
      await db.schema.createIndex('event_co_organizers_email_idx').on('event_co_organizers').column('email').execute();
      await sql`insert into event_co_organizers (event_id, email, created_at)
        select o.event_id, u.email, o.created_at from event_organizers o
        join users u on u.id = o.user_id join events e on e.id = o.event_id
        where o.user_id <> e.created_by`.execute(db);
      await sql`delete from event_organizers where user_id <> (select e.created_by from events e where e.id = event_organizers.event_id)`.execute(db);
    },
  },
  '0214_teams': {
    async up(db) {
      // A registration belongs to a team: its members, one of whom (registrations.user_id) leads.
      // A person is in at most one team per event (team_members_event_user_uq); member_count is kept
      // by the same transaction as every member insert/delete, so the maximum holds under concurrency.
      await db.schema
        .createTable('team_members')
        .addColumn('registration_id', 'text', (c) => c.notNull().references('registrations.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('joined_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('team_members_pkey', ['registration_id', 'user_id'])
        .addUniqueConstraint('team_members_event_user_uq', ['event_id', 'user_id'])
        .execute();
      await db.schema.createIndex('team_members_user_idx').on('team_members').columns(['user_id', 'event_id']).execute();
      await db.schema
        .alterTable('registrations')
        .addColumn('member_count', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await sql`insert into team_members (registration_id, event_id, user_id, role, joined_at)
        select id, event_id, user_id, 'leader', created_at from registrations`.execute(db);
      // Join codes: random, stored as sha256, shown once; expiring and revocable.
      await db.schema
        .createTable('team_invitations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('registration_id', 'text', (c) => c.notNull().references('registrations.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .addUniqueConstraint('team_invitations_code_hash_uq', ['code_hash'])
        .execute();
      await db.schema.createIndex('team_invitations_registration_idx').on('team_invitations').columns(['registration_id', 'id']).execute();
      // Who last wrote the project (null for rows written before teams).
      await db.schema.alterTable('projects').addColumn('updated_by_user_id', 'text').execute();
      // The organizer's team-size limits (null: no limit).
      await db.schema.alterTable('events').addColumn('max_team_size', 'integer').execute();
      await db.schema.alterTable('events').addColumn('min_team_size', 'integer').execute();
    },
  },
  '0215_mail_queue': {
    async up(db) {
      // The durable notification mail queue: one row per rendered mail, written in the same
      // transaction as the change it tells of. queued -> running (leased) -> sent | failed.
      await db.schema
        .createTable('mail_queue')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text')
        .addColumn('user_id', 'text')
        .addColumn('to_address', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text_body', 'text', (c) => c.notNull())
        .addColumn('html_body', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('lease_expires_at', 'text')
        .addColumn('last_error', 'text')
        // Set at the first failed attempt: retries stop (failed) once it has passed.
        .addColumn('give_up_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .execute();
      await db.schema.createIndex('mail_queue_due_idx').on('mail_queue').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('mail_queue_lease_idx').on('mail_queue').columns(['status', 'lease_expires_at']).execute();
    },
  },
  '0216_user_settings': {
    async up(db) {
      // A person's language ('en' | 'zh', null = en) and IANA time zone (null = UTC) for mails, and
      // one switch per kind of notification mail (1 = send).
      await db.schema.alterTable('users').addColumn('language', 'text').execute();
      await db.schema.alterTable('users').addColumn('time_zone', 'text').execute();
      for (const column of ['notify_registration', 'notify_team', 'notify_results'])
        await db.schema
          .alterTable('users')
          .addColumn(column, 'integer', (c) => c.notNull().defaultTo(1))
          .execute();
      // The language asked for at sign-up, kept until the link makes the account.
      await db.schema.alterTable('signup_requests').addColumn('language', 'text').execute();
    },
  },
  '0217_feedback_release': {
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
  },
  '0220_gallery': {
    async up(db) {
      // When an event's projects become public in its gallery: after the submission deadline (the
      // default), after the results are published, or never.
      await db.schema
        .alterTable('events')
        .addColumn('gallery_visibility', 'text', (c) => c.notNull().defaultTo('after_deadline'))
        .execute();
      // The gallery lists an event's projects in creation order, filtered by track.
      await db.schema.createIndex('projects_event_track_idx').on('projects').columns(['event_id', 'track_id', 'id']).execute();
    },
  },
  '0221_voting': {
    async up(db) {
      await db.schema.alterTable('events').addColumn('voting', 'text').execute();
      // An organizer can take a project out of the vote (it keeps its place in the judged ranking).
      await db.schema
        .alterTable('projects')
        .addColumn('vote_excluded', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // One row per vote. A person votes for a project once (votes_voter_project_uq), and holds at most
      // votes_per_person votes per track (or per event): each vote takes a numbered slot, and
      // votes_voter_slot_uq lets two votes at once never take the same one.
      await db.schema
        .createTable('votes')
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('slot', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('votes_voter_project_uq', ['event_id', 'user_id', 'project_id'])
        .addUniqueConstraint('votes_voter_slot_uq', ['event_id', 'user_id', 'scope', 'slot'])
        .execute();
      await db.schema.createIndex('votes_project_idx').on('votes').columns(['event_id', 'project_id']).execute();
      // The people's choice frozen at publication, beside the judged ranking.
      await db.schema
        .createTable('peoples_choice')
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('rank', 'integer', (c) => c.notNull())
        .addColumn('project_id', 'text', (c) => c.notNull())
        .addColumn('project_name', 'text', (c) => c.notNull())
        .addColumn('team_name', 'text', (c) => c.notNull())
        .addColumn('track_id', 'text')
        .addColumn('votes', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('peoples_choice_pk', ['event_id', 'position'])
        .execute();
    },
  },
  '0222_assignments': {
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
  },
  '0223_normalization': {
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
  },
  '0224_reviewer_reminders': {
    async up(db) {
      // The last reminder mail an organizer sent a reviewer of an event: at most one a day, enforced
      // by a conditional upsert on this row (see reviewers-repo.claimReminder).
      await db.schema
        .createTable('reviewer_reminders')
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('last_sent_at', 'text', (c) => c.notNull())
        .addColumn('last_sent_by', 'text', (c) => c.notNull())
        .addColumn('open_reviews', 'integer', (c) => c.notNull())
        .addColumn('reminders_sent', 'integer', (c) => c.notNull().defaultTo(1))
        .addPrimaryKeyConstraint('reviewer_reminders_pk', ['event_id', 'user_id'])
        .execute();
    },
  },
  '0225_event_media': {
    async up(db) {
      // An event's cover image and logo, uploaded by its organizers: the validated bytes themselves
      // (bytea on PostgreSQL, blob on SQLite), served from here with their checked type.
      const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
      await db.schema
        .createTable('event_media')
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('bytes', sqlite ? 'blob' : 'bytea', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('event_media_pk', ['event_id', 'kind'])
        .execute();
      // The event row names the current version of each (a prefix of its sha256), so the event's
      // cached representation carries `cover_url` / `logo_url` without reading the bytes' table.
      await db.schema.alterTable('events').addColumn('cover_version', 'text').execute();
      await db.schema.alterTable('events').addColumn('logo_version', 'text').execute();
    },
  },
  '0226_project_flags': {
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
  },
  '0227_audit_log': {
    async up(db) {
      // The audit log: one row per organizer or admin action, written in the action's own
      // transaction. No foreign keys: the log outlives what it describes (a deleted user or event
      // keeps its history). Append-only: the code has no update or delete path, and triggers
      // refuse both on either database.
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('event_id', 'text')
        .addColumn('actor_user_id', 'text')
        .addColumn('actor_label', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // Newest first, per event and over everything (admin): the keyset is (created_at, id).
      await sql`create index audit_log_event_idx on audit_log (event_id, created_at desc, id desc)`.execute(db);
      await sql`create index audit_log_created_idx on audit_log (created_at desc, id desc)`.execute(db);
      if (db.getExecutor().adapter instanceof SqliteAdapter) {
        await sql`create trigger audit_log_no_update before update on audit_log begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
        await sql`create trigger audit_log_no_delete before delete on audit_log begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
      } else {
        await sql`create function audit_log_refuse() returns trigger language plpgsql as $$ begin raise exception 'audit_log is append-only'; end $$`.execute(
          db,
        );
        await sql`create trigger audit_log_no_change before update or delete on audit_log for each row execute function audit_log_refuse()`.execute(db);
        await sql`create trigger audit_log_no_truncate before truncate on audit_log for each statement execute function audit_log_refuse()`.execute(db);
      }
    },
  },
  '0228_result_bundles': {
    async up(db) {
      // The verifiable results bundle, built in the publication's transaction and never changed:
      // its canonical JSON text (RFC 8785) and that text's SHA-256 without the `sha256` member.
      await db.schema
        .createTable('result_bundles')
        .addColumn('event_id', 'text', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
        .addColumn('bundle', 'text', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0229_build_window': {
    async up(db) {
      // When hacking starts (build-window checks compare a repository's creation and first commit
      // with it); null: the registration deadline.
      await db.schema.alterTable('events').addColumn('hacking_starts_at', 'text').execute();
      // A project's build-window check: the github_url the last completed check was for (a changed
      // URL, or none yet, makes the project due), and when a skipped check (GitHub rate-limited or
      // unreachable) is tried again.
      await db.schema.alterTable('projects').addColumn('build_window_url', 'text').execute();
      await db.schema.alterTable('projects').addColumn('build_window_retry_at', 'text').execute();
      // …and the hacking start it was compared with: a moved start makes the project due again.
      await db.schema.alterTable('projects').addColumn('build_window_start', 'text').execute();
      // What the GitHub API said about a repository (creation, fork, oldest commit, commit sizes),
      // per lower-cased owner/repo, so projects and processes share one read for a while.
      await db.schema
        .createTable('github_repo_facts')
        .addColumn('repo_key', 'text', (c) => c.primaryKey())
        .addColumn('facts', 'text', (c) => c.notNull())
        .addColumn('fetched_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0230_build_window_groups': {
    async up(db) {
      // The duplicate-repository check reads the projects of one repository, not every project of
      // the event: the lower-cased owner/repo of the URL last checked, indexed with the event.
      await db.schema.alterTable('projects').addColumn('build_window_repo', 'text').execute();
      await db.schema.createIndex('projects_build_window_repo_idx').on('projects').columns(['event_id', 'build_window_repo']).execute();
      // A pass reads only the due projects: never checked or changed URL (this partial index holds
      // exactly those) …
      await sql`create index projects_build_window_due_idx on projects (updated_at, id) where build_window_url is null or build_window_url <> github_url or build_window_start is null`.execute(
        db,
      );
      // … and, per event, the hacking start its projects were compared with (min and max, then the
      // ranges that differ from the event's start).
      await db.schema.createIndex('projects_build_window_start_idx').on('projects').columns(['event_id', 'build_window_start']).execute();
      // Duplicate flags become one per project (not one per pair): the open pair flags go, and every
      // checked project is checked once more (usually from the cached facts) to record its repository
      // and its new flag. Flags an organizer marked checked stay as the record of what they saw.
      await db.deleteFrom('project_flags').where('source', '=', 'duplicate_repository').where('status', '=', 'open').execute();
      await db.updateTable('projects').set({ build_window_start: null }).where('build_window_url', 'is not', null).execute();
    },
  },
};

class InCodeMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/** Kysely reports a failed migration as `unknown`. */
function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Migrates up (or down) to the named migration: for upgrading step by step. */
export async function migrateTo(db: Kysely<Database>, name: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new InCodeMigrationProvider() });
  const { error, results } = await migrator.migrateTo(name);
  if (error) throw asError(error);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new InCodeMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw asError(error);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The names of every migration this version knows, in order: a database with others was made by a newer version. */
export function knownMigrations(): string[] {
  return Object.keys(migrations).sort();
}
