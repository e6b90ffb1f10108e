/**
 * The floor of the write benchmark: the register + submit write path written by hand, doing the same
 * inserts as the app on the same database, with every statement prepared once and each write in one
 * transaction, behind a bare Fastify (JSON parsing only). What no framework, validation, auth hook or
 * query builder costs: bench/http.ts prints the app's write rate as a multiple of this one.
 * The same statements as the app: a key's first request looks it up by its hash and stamps its
 * last use (then it is cached, as the app caches it); events are known in memory (the app caches them).
 *
 * DATABASE_URL (sqlite:<path> or postgres://…), PORT. Prints "ready" once listening.
 */
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';
import { hashApiKey } from '../src/accounts/api-keys.js';
import { newId } from '../src/core/ids.js';

const url = process.env.DATABASE_URL!;
const app = Fastify({ logger: false });

interface Store {
  key(hash: string): Promise<{ id: string; user_id: string; email: string } | undefined>;
  touch(keyId: string, at: string): Promise<void>;
  register(row: unknown[]): Promise<void>;
  teamRegistration(eventId: string, userId: string): Promise<{ id: string; status: string; track_id: string | null } | undefined>;
  submit(row: unknown[]): Promise<boolean>;
}

const REG_INSERT = `insert into registrations (id, event_id, user_id, team_name, team_name_key, track_id, contact_email, github_url, fields, status,
  reason, rejected_final, attempt, reapplied_at, created_at, updated_at, member_count) values (?, ?, ?, ?, ?, ?, ?, ?, ?, 'approved', null, 0, 1, null, ?, ?, 1)`;
const MEMBER_INSERT = `insert into team_members (registration_id, event_id, user_id, role, joined_at) values (?, ?, ?, 'leader', ?)`;
const KEY_SELECT = `select k.id, u.id as user_id, u.email from api_keys k join users u on u.id = k.user_id where k.key_hash = ? and k.revoked_at is null`;
const KEY_TOUCH = `update api_keys set last_used_at = ? where id = ?`;
const TEAM_SELECT = `select r.id, r.status, r.track_id from team_members tm join registrations r on r.id = tm.registration_id where tm.event_id = ? and tm.user_id = ?`;
const PROJECT_INSERT = `insert into projects (id, event_id, registration_id, project_name, github_url, project_website, demo_video_url, team_size, description,
  track_id, status, review_status, first_submitted_at, created_at, updated_at, updated_by_user_id)
  values (?, ?, ?, ?, ?, null, null, null, ?, ?, 'submitted', 'pending', ?, ?, ?, ?) on conflict (registration_id) do nothing`;
const PROJECT_UPDATE = `update projects set project_name = ?, github_url = ?, description = ?, updated_at = ?, updated_by_user_id = ? where registration_id = ?`;

function sqliteStore(path: string): Store {
  const db = new SQLite(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const reg = db.prepare(REG_INSERT);
  const member = db.prepare(MEMBER_INSERT);
  const team = db.prepare(TEAM_SELECT);
  const insertProject = db.prepare(PROJECT_INSERT);
  const updateProject = db.prepare(PROJECT_UPDATE);
  const registerTx = db.transaction((row: unknown[]) => {
    reg.run(...row);
    member.run(row[0], row[1], row[2], row[9]);
  });
  const submitTx = db.transaction((row: unknown[]) => {
    if (insertProject.run(...row).changes === 1) return true;
    updateProject.run(row[3], row[4], row[5], row[8], row[10], row[2]);
    return false;
  });
  const keySelect = db.prepare(KEY_SELECT);
  const keyTouch = db.prepare(KEY_TOUCH);
  return {
    key: async (hash) => keySelect.get(hash) as never,
    touch: async (id, at) => void keyTouch.run(at, id),
    register: async (row) => void registerTx(row),
    teamRegistration: async (eventId, userId) => team.get(eventId, userId) as never,
    submit: async (row) => submitTx(row),
  };
}

function postgresStore(connectionString: string): Store {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // Named statements: parsed and planned once per connection.
  const numbered = (text: string) => {
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  };
  const q = (name: string, text: string) => ({ name, text: numbered(text) });
  const [keySelect, keyTouch, reg, member, team, insertProject, updateProject] = [
    q('key', KEY_SELECT),
    q('touch', KEY_TOUCH),
    q('reg', REG_INSERT),
    q('member', MEMBER_INSERT),
    q('team', TEAM_SELECT),
    q('insert_project', PROJECT_INSERT),
    q('update_project', PROJECT_UPDATE),
  ];
  return {
    key: async (hash) => (await pool.query({ ...keySelect, values: [hash] })).rows[0],
    touch: async (id, at) => void (await pool.query({ ...keyTouch, values: [at, id] })),
    async register(row) {
      const c = await pool.connect();
      try {
        await c.query('begin');
        await c.query({ ...reg, values: row });
        await c.query({ ...member, values: [row[0], row[1], row[2], row[9]] });
        await c.query('commit');
      } catch (err) {
        await c.query('rollback').catch(() => {});
        throw err;
      } finally {
        c.release();
      }
    },
    teamRegistration: async (eventId, userId) => (await pool.query({ ...team, values: [eventId, userId] })).rows[0],
    async submit(row) {
      const c = await pool.connect();
      try {
        await c.query('begin');
        const created = (await c.query({ ...insertProject, values: row })).rowCount === 1;
        if (!created) await c.query({ ...updateProject, values: [row[3], row[4], row[5], row[8], row[10], row[2]] });
        await c.query('commit');
        return created;
      } catch (err) {
        await c.query('rollback').catch(() => {});
        throw err;
      } finally {
        c.release();
      }
    },
  };
}

const store = url.startsWith('postgres') ? postgresStore(url) : sqliteStore(url.replace(/^sqlite:/, ''));
const users = new Map<string, { id: string; email: string }>();

async function caller(auth: string | undefined) {
  const token = auth?.startsWith('Bearer ') ? auth.slice(7) : '';
  const hash = hashApiKey(token);
  const cached = users.get(hash);
  if (cached) return cached;
  const found = await store.key(hash);
  if (!found) return undefined;
  store.touch(found.id, new Date().toISOString()).catch(() => {});
  const who = { id: found.user_id, email: found.email };
  users.set(hash, who);
  return who;
}

app.post<{ Params: { id: string }; Body: { team_name: string; track_id?: string; fields?: Record<string, unknown> } }>(
  '/api/v1/events/:id/register',
  async (request, reply) => {
    const who = await caller(request.headers.authorization);
    if (!who) return reply.status(401).send({ code: 'unauthorized' });
    const b = request.body;
    const stamp = new Date().toISOString();
    const id = newId('reg');
    const row = [
      id,
      request.params.id,
      who.id,
      b.team_name,
      b.team_name.toLowerCase(),
      b.track_id ?? null,
      who.email,
      null,
      JSON.stringify(b.fields ?? {}),
      stamp,
      stamp,
    ];
    try {
      await store.register(row);
    } catch {
      return reply.status(409).send({ code: 'already_registered' });
    }
    reply.status(201);
    return { id, event_id: request.params.id, status: 'approved', team_name: b.team_name, track_id: b.track_id ?? null, created_at: stamp };
  },
);

app.post<{ Params: { id: string }; Body: { project_name: string; github_url: string; description?: string } }>(
  '/api/v1/events/:id/submit',
  async (request, reply) => {
    const who = await caller(request.headers.authorization);
    if (!who) return reply.status(401).send({ code: 'unauthorized' });
    const team = await store.teamRegistration(request.params.id, who.id);
    if (!team || team.status !== 'approved') return reply.status(403).send({ code: 'registration_not_approved' });
    const b = request.body;
    const stamp = new Date().toISOString();
    const id = newId('prj');
    const created = await store.submit([
      id,
      request.params.id,
      team.id,
      b.project_name,
      b.github_url,
      b.description ?? null,
      team.track_id,
      stamp,
      stamp,
      stamp,
      who.id,
    ]);
    reply.status(created ? 201 : 200);
    return {
      id,
      event_id: request.params.id,
      registration_id: team.id,
      project_name: b.project_name,
      github_url: b.github_url,
      updated: !created,
      updated_at: stamp,
    };
  },
);

app.get('/healthz', async () => ({ ok: true }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
