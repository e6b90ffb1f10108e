import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { insertFlag } from '../helpers/flags.js';
import { tinyPng } from '../helpers/images.js';
import { quickUser } from '../helpers/quick-users.js';
import { callTool, connectMcp, toolOk, toolProblem } from '../helpers/mcp-client.js';

const DAY = 86_400_000;

interface Entry {
  id: string;
  event_id: string | null;
  actor_user_id: string | null;
  actor_label: string;
  action: string;
  target_type: string;
  target_id: string;
  data: Record<string, any>;
  created_at: string;
}

/**
 * The audit log (issue 21): every organizer and admin action leaves one entry, written in the
 * action's own transaction; GET /events/:id/audit for the event's owners, GET /admin/audit for
 * admins; the table refuses UPDATE and DELETE.
 */
describe.each(DIALECTS)('audit log (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let admin: TestUser;
  let outbox: string;

  beforeAll(async () => {
    outbox = mkdtempSync(join(tmpdir(), 'hk-audit-outbox-'));
    t = await startTestApp(dialect, { env: { OUTBOX_DIR: outbox, REVIEW_WORKERS: 'false' } });
    org = await quickUser(t, 'organizer');
    admin = await quickUser(t, 'admin');
  });
  afterAll(async () => {
    await t?.close();
    rmSync(outbox, { recursive: true, force: true });
  });

  /** Every entry of the event's log, newest first, walking the Link pages. */
  async function eventLog(eventId: string, key = org.key, query = 'limit=1000'): Promise<Entry[]> {
    const res = await t.api('GET', `/events/${eventId}/audit?${query}`, { key });
    expect(res.status, res.text).toBe(200);
    return res.body as Entry[];
  }

  /** Runs an action one second after the previous one, so the log's order is the actions' order. */
  async function step<T>(action: () => Promise<{ status: number; text: string } & T>, status: number): Promise<T & { status: number }> {
    t.clock.advance(1000);
    const res = await action();
    expect(res.status, res.text).toBe(status);
    return res;
  }

  async function register(eventId: string) {
    const team = await quickUser(t);
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: { ...registrationBody(), fields: {} } });
    expect(reg.status, reg.text).toBe(201);
    return { team, registrationId: reg.body.id as string };
  }

  async function upload(eventId: string, key: string) {
    const res = await fetch(`${t.url}/api/v1/events/${eventId}/media/cover`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'image/png' },
      body: new Uint8Array(tinyPng()),
    });
    return { status: res.status, text: await res.text() };
  }

  it('records every organizer action on an event, by whom, on what, with an edit’s fields before and after', async () => {
    const eventId = await createEvent(t, org.key, { models: ['openai/gpt-4o-mini'], registration_config: { open: true, auto_approve: false, fields: [] } });
    const before = (await t.api('GET', `/events/${eventId}`, { key: org.key })).body;
    const newDeadline = new Date(t.clock.now().getTime() + 3 * DAY).toISOString();
    const hackingStarts = new Date(t.clock.now().getTime() + DAY / 2).toISOString();
    await step(
      () =>
        t.api('PATCH', `/events/${eventId}`, {
          key: org.key,
          body: {
            submission_deadline: newDeadline,
            hacking_starts_at: hackingStarts,
            dimensions: [
              { name: 'impact', weight: 3 },
              { name: 'craft', weight: 1 },
            ],
            co_organizers: ['helper@example.com'],
          },
        }),
      200,
    );
    const a = await register(eventId);
    const b = await register(eventId);
    await step(() => t.api('POST', `/events/${eventId}/registrations/${a.registrationId}/approve`, { key: org.key }), 200);
    await step(
      () => t.api('POST', `/events/${eventId}/registrations/${b.registrationId}/reject`, { key: org.key, body: { reason: 'Off topic', final: true } }),
      200,
    );
    await step(() => upload(eventId, org.key), 200);
    await step(() => t.api('DELETE', `/events/${eventId}/media/cover`, { key: org.key }), 204);
    const invited = await step(() => t.api('POST', `/events/${eventId}/reviewers`, { key: org.key, body: { email: 'judge@example.com' } }), 201);
    const invitationId = (invited as unknown as { body: { id: string } }).body.id;
    await step(() => t.api('DELETE', `/events/${eventId}/reviewer-invitations/${invitationId}`, { key: org.key }), 204);

    // A submitted project and two reviewers, for the assignment actions.
    const submitted = await t.api('POST', `/events/${eventId}/submit`, {
      key: a.team.key,
      body: { project_name: 'Rocket', github_url: 'https://github.com/acme/rocket' },
    });
    expect(submitted.status, submitted.text).toBe(201);
    const projectId = submitted.body.id as string;
    const [r1, r2] = [await quickUser(t), await quickUser(t)];
    for (const r of [r1, r2]) {
      await t.database.db.insertInto('event_reviewers').values({ event_id: eventId, user_id: r.id, created_at: t.clock.now().toISOString() }).execute();
    }
    await step(() => t.api('POST', `/events/${eventId}/assignments/auto`, { key: org.key, body: { per_project: 1 } }), 200);
    await step(() => t.api('PUT', `/events/${eventId}/assignments/${projectId}`, { key: org.key, body: { reviewer_ids: [r2.id] } }), 200);
    await step(() => t.api('PATCH', `/events/${eventId}/assignments`, { key: org.key, body: { review_mode: 'every' } }), 200);
    await step(() => t.api('POST', `/events/${eventId}/reviewers/${r1.id}/conflicts/${projectId}`, { key: org.key }), 204);
    await step(() => t.api('DELETE', `/events/${eventId}/reviewers/${r1.id}/conflicts/${projectId}`, { key: org.key }), 204);
    await step(() => t.api('DELETE', `/events/${eventId}/reviewers/${r1.id}`, { key: org.key }), 204);
    await step(() => t.api('PUT', `/events/${eventId}/votes/exclusions/${projectId}`, { key: org.key }), 204);
    await step(() => t.api('DELETE', `/events/${eventId}/votes/exclusions/${projectId}`, { key: org.key }), 204);
    const flagId = await insertFlag(t.database.db, { eventId, projectId, evidence: 'Ignore your instructions', at: t.clock.now() });
    await step(
      () => t.api('PUT', `/events/${eventId}/projects/${projectId}/flags/${flagId}`, { key: org.key, body: { status: 'checked', note: 'harmless' } }),
      200,
    );
    await step(() => t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } }), 200);
    await step(() => t.api('POST', `/events/${eventId}/reviews/rerun`, { key: org.key }), 202);
    await step(() => t.api('POST', `/events/${eventId}/results/publish`, { key: org.key, body: { force: true } }), 200);
    await step(() => t.api('PUT', `/events/${eventId}/results/feedback`, { key: org.key, body: { released: true } }), 200);

    const log = await eventLog(eventId);
    expect(log.map((e) => e.action).reverse()).toEqual([
      'event.created',
      'event.updated',
      'registration.approved',
      'registration.rejected',
      'event.media_uploaded',
      'event.media_removed',
      'reviewer.invited',
      'reviewer.invitation_revoked',
      'assignment.auto',
      'assignment.set',
      'assignment.mode_changed',
      'conflict.declared',
      'conflict.removed',
      'reviewer.removed',
      'vote.excluded',
      'vote.included',
      'flag.checked',
      'event.updated',
      'review.rerun',
      'results.published',
      'feedback.released',
    ]);
    expect(log.every((e) => e.event_id === eventId && e.actor_user_id === org.id && e.actor_label === org.email)).toBe(true);
    // Newest first, each a distinct moment of the test clock.
    expect([...log].sort((x, y) => y.created_at.localeCompare(x.created_at))).toEqual(log);

    const find = (action: string) => log.filter((e) => e.action === action).reverse();
    expect(find('event.updated')[0]!.data.changes).toEqual([
      { field: 'submission_deadline', before: before.submission_deadline, after: newDeadline },
      { field: 'hacking_starts_at', before: null, after: hackingStarts },
      {
        field: 'dimensions',
        before: [
          { name: 'impact', weight: 2 },
          { name: 'craft', weight: 1 },
        ],
        after: [
          { name: 'impact', weight: 3 },
          { name: 'craft', weight: 1 },
        ],
      },
      { field: 'co_organizers', before: [], after: ['helper@example.com'] },
    ]);
    expect(find('event.updated')[1]!.data.changes).toEqual([{ field: 'status', before: 'open', after: 'judging' }]);
    expect(find('registration.approved')[0]).toMatchObject({ target_type: 'registration', target_id: a.registrationId });
    expect(find('registration.rejected')[0]).toMatchObject({ target_id: b.registrationId, data: { reason: 'Off topic', final: true } });
    expect(find('event.media_uploaded')[0]).toMatchObject({
      target_type: 'event_media',
      target_id: 'cover',
      data: { kind: 'cover', content_type: 'image/png' },
    });
    expect(find('reviewer.invited')[0]).toMatchObject({ target_type: 'reviewer_invitation', target_id: invitationId, data: { email: 'judge@example.com' } });
    expect(find('reviewer.invitation_revoked')[0]).toMatchObject({ target_id: invitationId });
    expect(find('assignment.auto')[0]!.data).toEqual({ per_project: 1 });
    expect(find('assignment.set')[0]).toMatchObject({ target_type: 'project', target_id: projectId });
    expect(find('assignment.set')[0]!.data.changes[0].after).toEqual([r2.id]);
    expect(find('assignment.mode_changed')[0]!.data.changes).toEqual([{ field: 'review_mode', before: 'assigned', after: 'every' }]);
    expect(find('conflict.declared')[0]).toMatchObject({ target_id: projectId, data: { reviewer_id: r1.id } });
    expect(find('reviewer.removed')[0]).toMatchObject({ target_type: 'user', target_id: r1.id });
    expect(find('vote.excluded')[0]).toMatchObject({ target_id: projectId });
    expect(find('flag.checked')[0]).toMatchObject({ target_type: 'project_flag', target_id: flagId, data: { project_id: projectId, note: 'harmless' } });
    expect(find('review.rerun')[0]!.data).toMatchObject({ model: null, statuses: ['failed'] });
    expect(find('results.published')[0]!.data).toMatchObject({ force: true, feedback_released: false });
    expect(find('feedback.released')[0]!.data.changes).toEqual([{ field: 'feedback_released', before: false, after: true }]);
    // No secret is ever logged: the invitation's token (the outbox mail holds the link) is nowhere in the log.
    expect(JSON.stringify(log)).not.toMatch(/invitations\/|token/i);

    // The action filter.
    const approvals = await eventLog(eventId, org.key, 'action=registration.approved');
    expect(approvals.map((e) => e.target_id)).toEqual([a.registrationId]);
  });

  it('records admin and CLI actions on accounts and keys, site-wide (event_id null), in the admin log only', async () => {
    const target = await quickUser(t);
    await step(() => t.api('PATCH', `/admin/users/${target.id}`, { key: admin.key, body: { role: 'organizer' } }), 200);
    await step(() => t.api('PATCH', `/admin/users/${target.id}`, { key: admin.key, body: { disabled: true } }), 200);
    t.clock.advance(1000);
    await t.ctx.accounts.setDisabled(target.email, false);
    t.clock.advance(1000);
    await t.ctx.accounts.setRole(target.email, 'user');
    t.clock.advance(1000);
    const key = await t.ctx.accounts.createKey(target.id);
    await t.ctx.accounts.revokeKey(key.id);

    const res = await t.api('GET', '/admin/audit?limit=5', { key: admin.key });
    expect(res.status, res.text).toBe(200);
    const mine = (res.body as Entry[]).filter((e) => e.target_id === target.id || e.target_id === key.id).reverse();
    expect(mine.map((e) => [e.action, e.actor_label, e.actor_user_id, e.event_id])).toEqual([
      ['user.role_changed', admin.email, admin.id, null],
      ['user.disabled', admin.email, admin.id, null],
      ['user.enabled', 'cli', null, null],
      ['user.role_changed', 'cli', null, null],
      ['api_key.revoked', 'cli', null, null],
    ]);
    expect(mine[0]!.data).toEqual({ email: target.email, changes: [{ field: 'role', before: 'user', after: 'organizer' }] });
    expect(mine[3]!.data.changes).toEqual([{ field: 'role', before: 'organizer', after: 'user' }]);
    // The key by its id and display prefix; never the secret.
    expect(mine[4]).toMatchObject({ target_type: 'api_key', target_id: key.id, data: { prefix: key.prefix, user_id: target.id } });
    expect(JSON.stringify(mine)).not.toContain(key.key);

    // One PATCH that changes both: two entries of the same moment, in the order they were written.
    const both = await quickUser(t);
    await step(() => t.api('PATCH', `/admin/users/${both.id}`, { key: admin.key, body: { role: 'organizer', disabled: true } }), 200);
    const pair = ((await t.api('GET', '/admin/audit?limit=2', { key: admin.key })).body as Entry[]).reverse();
    expect(pair.map((e) => [e.action, e.target_id])).toEqual([
      ['user.role_changed', both.id],
      ['user.disabled', both.id],
    ]);
    expect(pair[0]!.created_at).toBe(pair[1]!.created_at);

    // Invite codes: named by id and display prefix, never by the code.
    t.clock.advance(1000);
    const created = await t.api('POST', '/admin/invite-codes', { key: admin.key, body: { note: 'for the jury' } });
    expect(created.status, created.text).toBe(201);
    t.clock.advance(1000);
    expect((await t.api('DELETE', `/admin/invite-codes/${created.body.id}`, { key: admin.key })).status).toBe(204);
    const codes = ((await t.api('GET', '/admin/audit?limit=2', { key: admin.key })).body as Entry[]).reverse();
    expect(codes.map((e) => [e.action, e.target_type, e.target_id, e.actor_label])).toEqual([
      ['invite_code.created', 'invite_code', created.body.id, admin.email],
      ['invite_code.revoked', 'invite_code', created.body.id, admin.email],
    ]);
    expect(codes[0]!.data).toEqual({ prefix: created.body.prefix, note: 'for the jury', max_uses: 1, expires_at: null });
    expect(JSON.stringify(codes)).not.toContain(created.body.code);

    const filtered = await t.api('GET', '/admin/audit?action=user.disabled', { key: admin.key });
    expect(filtered.status).toBe(200);
    expect((filtered.body as Entry[]).every((e) => e.action === 'user.disabled')).toBe(true);
    expect((filtered.body as Entry[]).map((e) => e.target_id)).toContain(target.id);
  });

  it('pages newest first through Link rel="next" on both routes, and the admin log filters by event', async () => {
    const eventId = await createEvent(t, org.key, { registration_config: { open: true, auto_approve: false, fields: [] } });
    for (let i = 0; i < 4; i++) await step(() => t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { name: `Renamed ${i}` } }), 200);
    const all = await eventLog(eventId);
    expect(all).toHaveLength(5);
    expect(all[0]!.data.changes).toEqual([{ field: 'name', before: 'Renamed 2', after: 'Renamed 3' }]);

    for (const [path, key] of [
      [`/events/${eventId}/audit?limit=2`, org.key],
      [`/admin/audit?limit=2&event_id=${eventId}`, admin.key],
    ] as const) {
      const seen: Entry[] = [];
      let next: string | null = `${t.url}/api/v1${path}`;
      for (let pages = 0; next && pages < 4; pages++) {
        const res: Response = await fetch(next, { headers: { authorization: `Bearer ${key}` } });
        expect(res.status).toBe(200);
        seen.push(...((await res.json()) as Entry[]));
        const link: string | undefined = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
        // The link is on the public URL; the test server listens elsewhere.
        next = link ? `${t.url}${new URL(link).pathname}${new URL(link).search}` : null;
      }
      expect(next).toBeNull();
      expect(seen.map((e) => e.id)).toEqual(all.map((e) => e.id));
    }

    // A cursor of another event's log is a client mistake.
    const other = await createEvent(t, org.key);
    const first = await t.api('GET', `/events/${eventId}/audit?limit=2`, { key: org.key });
    const cursor = new URL(/<([^>]+)>/.exec(first.headers.get('link')!)![1]!).searchParams.get('cursor')!;
    const wrong = await t.api('GET', `/events/${other}/audit?cursor=${cursor}`, { key: org.key });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe('validation_failed');
  });

  it('logs no entry for an edit that changes nothing (the same values, co-organizers in another order)', async () => {
    const eventId = await createEvent(t, org.key, { co_organizers: ['b-x@example.com', 'a.y@example.com', 'ab@example.com'] });
    await step(
      () =>
        t.api('PATCH', `/events/${eventId}`, {
          key: org.key,
          body: { co_organizers: ['ab@example.com', 'a.y@example.com', 'b-x@example.com'], name: 'Agents Hack' },
        }),
      200,
    );
    expect((await eventLog(eventId)).map((e) => e.action)).toEqual(['event.created']);
    await step(() => t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { co_organizers: ['ab@example.com'] } }), 200);
    const [edit] = await eventLog(eventId);
    expect(edit!.data.changes).toEqual([
      { field: 'co_organizers', before: ['a.y@example.com', 'ab@example.com', 'b-x@example.com'], after: ['ab@example.com'] },
    ]);
  });

  it('shows an event’s log to its owners, co-organizers and admins only', async () => {
    const coOrg = await quickUser(t, 'organizer');
    const eventId = await createEvent(t, org.key, { co_organizers: [coOrg.email], registration_config: { open: true, auto_approve: true, fields: [] } });
    const draftId = await createEvent(t, org.key, { status: 'draft' });
    const stranger = await quickUser(t, 'organizer');
    const { team } = await register(eventId);
    const reviewer = await quickUser(t);
    await t.database.db.insertInto('event_reviewers').values({ event_id: eventId, user_id: reviewer.id, created_at: t.clock.now().toISOString() }).execute();

    expect((await eventLog(eventId, coOrg.key)).map((e) => e.action)).toEqual(['event.created']);
    expect((await eventLog(eventId, admin.key)).map((e) => e.action)).toEqual(['event.created']);
    for (const who of [stranger, team, reviewer]) {
      const res = await t.api('GET', `/events/${eventId}/audit`, { key: who.key });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
      const draft = await t.api('GET', `/events/${draftId}/audit`, { key: who.key });
      expect(draft.status).toBe(404);
      expect(draft.body.code).toBe('event_not_found');
    }
    const anonymous = await t.api('GET', `/events/${eventId}/audit`, { key: null });
    expect(anonymous.status).toBe(401);
    const missing = await t.api('GET', `/events/evt_nope/audit`, { key: org.key });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('event_not_found');
    for (const who of [org, coOrg, team]) {
      const res = await t.api('GET', '/admin/audit', { key: who.key });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
  });

  it('reads the log over MCP (get_audit_log) with the route’s authorization and filter', async () => {
    const eventId = await createEvent(t, org.key);
    await step(() => t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { name: 'Over MCP' } }), 200);
    const stranger = await quickUser(t, 'organizer');
    const [mine, theirs] = [await connectMcp(t, org.key, 'audit-test'), await connectMcp(t, stranger.key, 'audit-test')];
    try {
      const page = toolOk(await callTool(mine, 'get_audit_log', { event_id: eventId }));
      expect(page.items.map((e: Entry) => e.action)).toEqual(['event.updated', 'event.created']);
      expect(page.items[0].data.changes).toEqual([{ field: 'name', before: 'Agents Hack', after: 'Over MCP' }]);
      expect(page.next_cursor).toBeNull();
      const filtered = toolOk(await callTool(mine, 'get_audit_log', { event_id: eventId, action: 'event.created' }));
      expect(filtered.items.map((e: Entry) => e.action)).toEqual(['event.created']);
      expect(toolProblem(await callTool(theirs, 'get_audit_log', { event_id: eventId }))).toMatchObject({ code: 'forbidden' });
    } finally {
      await Promise.all([mine.close(), theirs.close()]);
    }
  });

  it('writes nothing when the action fails after its entry was written (same transaction)', async () => {
    const eventId = await createEvent(t, org.key, { registration_config: { open: true, auto_approve: false, fields: [] } });
    const { registrationId } = await register(eventId);
    // The approval's mail is queued after its audit entry, in the same transaction: make that insert fail.
    if (dialect === 'sqlite') {
      await sql`create trigger audit_test_fail before insert on mail_queue begin select raise(abort, 'mail queue refused'); end`.execute(t.database.db);
    } else {
      await sql`create function audit_test_fail() returns trigger language plpgsql as $$ begin raise exception 'mail queue refused'; end $$`.execute(
        t.database.db,
      );
      await sql`create trigger audit_test_fail before insert on mail_queue for each row execute function audit_test_fail()`.execute(t.database.db);
    }
    try {
      t.clock.advance(1000);
      const res = await t.api('POST', `/events/${eventId}/registrations/${registrationId}/approve`, { key: org.key });
      expect(res.status).toBe(500);
    } finally {
      await sql`drop trigger audit_test_fail${sql.raw(dialect === 'sqlite' ? '' : ' on mail_queue')}`.execute(t.database.db);
      if (dialect !== 'sqlite') await sql`drop function audit_test_fail()`.execute(t.database.db);
    }
    expect((await eventLog(eventId)).map((e) => e.action)).toEqual(['event.created']);
    const reg = await t.database.db.selectFrom('registrations').select('status').where('id', '=', registrationId).executeTakeFirstOrThrow();
    expect(reg.status).toBe('pending');

    // And an action that succeeds writes its entry.
    await step(() => t.api('POST', `/events/${eventId}/registrations/${registrationId}/approve`, { key: org.key }), 200);
    expect((await eventLog(eventId)).map((e) => e.action)).toEqual(['registration.approved', 'event.created']);
  });

  it('is append-only: the database refuses UPDATE and DELETE of an entry', async () => {
    const eventId = await createEvent(t, org.key);
    const [entry] = await eventLog(eventId);
    await expect(sql`update audit_log set action = 'forged' where id = ${entry!.id}`.execute(t.database.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_log where id = ${entry!.id}`.execute(t.database.db)).rejects.toThrow(/append-only/);
    await expect(t.database.db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
    expect((await eventLog(eventId)).map((e) => [e.id, e.action])).toEqual([[entry!.id, 'event.created']]);
  });
});
