import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegistrationStatus } from '../../src/core/db/schema.js';
import { newId } from '../../src/core/ids.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, registrationBody, startTestApp, T0, type ApiResponse, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

const DAY = 86_400_000;
let seq = 0;

describe.each(DIALECTS)('organizer list pagination (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => t?.close());

  const stamp = (ms: number) => new Date(T0.getTime() + ms).toISOString();

  /** Teams written straight to the database (hundreds over HTTP would only slow the suite down). */
  async function seedTeams(
    eventId: string,
    n: number,
    opts: {
      status?: (i: number) => RegistrationStatus;
      track?: (i: number) => string | null;
      name?: (i: number) => string;
      submittedAt?: (i: number) => string;
    } = {},
  ) {
    const db = t.database.db;
    const out: Array<{ userId: string; registrationId: string; projectId: string | null; teamName: string }> = [];
    for (let i = 0; i < n; i++) {
      const userId = newId('usr');
      const at = stamp(0);
      const teamName = opts.name?.(i) ?? `Seeded ${++seq}`;
      await db
        .insertInto('users')
        .values({ id: userId, email: `${userId}@example.com`, password_hash: null, role: 'user', created_at: at, updated_at: at })
        .execute();
      const registrationId = newId('reg');
      await db
        .insertInto('registrations')
        .values({
          id: registrationId,
          event_id: eventId,
          user_id: userId,
          team_name: teamName,
          team_name_key: teamName.toLowerCase(),
          track_id: opts.track ? opts.track(i) : 'tools',
          contact_email: `${userId}@example.com`,
          github_url: null,
          fields: JSON.stringify({ repo: 'https://github.com/example/repo' }),
          status: opts.status?.(i) ?? 'approved',
          reason: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
      let projectId: string | null = null;
      if (opts.submittedAt) {
        projectId = newId('prj');
        const sub = opts.submittedAt(i);
        await db
          .insertInto('projects')
          .values({
            id: projectId,
            event_id: eventId,
            registration_id: registrationId,
            project_name: `Project of ${teamName}`,
            description: 'x'.repeat(200),
            github_url: 'https://github.com/example/p',
            project_website: null,
            demo_video_url: null,
            team_size: 2,
            track_id: 'tools',
            status: 'submitted',
            review_status: 'pending',
            first_submitted_at: sub,
            created_at: sub,
            updated_at: sub,
          })
          .execute();
      }
      out.push({ userId, registrationId, projectId, teamName });
    }
    return out;
  }

  function nextPath(res: ApiResponse): string | null {
    const link = res.headers.get('link');
    if (!link) return null;
    const m = /^<([^>]+)>; rel="next"$/.exec(link);
    expect(m, link).not.toBeNull();
    const url = m![1]!;
    expect(url.startsWith(`${t.config.publicUrl}/api/v1/`)).toBe(true);
    return url.slice(t.config.publicUrl.length);
  }

  /** Follows Link rel="next" from `path`; between pages, `between(pageIndex)` may change the data. */
  async function walk(path: string, key: string, between?: (page: number) => Promise<void>, pick: (body: any) => any[] = (b) => b) {
    const items: any[] = [];
    const sizes: number[] = [];
    let next: string | null = path;
    for (let page = 0; next; page++) {
      if (page > 0 && between) await between(page);
      const res = await t.request('GET', next, { key });
      expect(res.status, res.text).toBe(200);
      sizes.push(pick(res.body).length);
      items.push(...pick(res.body));
      next = nextPath(res);
      expect(page).toBeLessThan(200);
    }
    return { items, sizes };
  }

  const orgGet = (path: string, key = org.key) => t.api('GET', path, { key });

  describe('limit and cursor validation', () => {
    let eventId: string;
    beforeAll(async () => {
      eventId = await createEvent(t, org.key);
    });

    const lists = ['registrations', 'projects', 'reviews', 'reviewers'];

    it.each(lists)('refuses limit=0 and limit=1001 on %s with 422 naming the allowed range', async (list) => {
      for (const limit of ['0', '1001', 'abc', '2.5']) {
        const res = await orgGet(`/events/${eventId}/${list}?limit=${limit}`);
        expect(res.status, `${list} limit=${limit}`).toBe(422);
        expect(res.body.code).toBe('validation_failed');
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['limit']);
      }
      for (const limit of ['0', '1001']) {
        const res = await orgGet(`/events/${eventId}/${list}?limit=${limit}`);
        expect(res.body.errors[0].message).toBe('must be between 1 and 1000');
      }
      expect((await orgGet(`/events/${eventId}/${list}?limit=1000`)).status).toBe(200);
      expect((await orgGet(`/events/${eventId}/${list}?limit=1`)).status).toBe(200);
    });

    it.each(lists)('refuses a malformed cursor on %s with 422 on field cursor', async (list) => {
      const garbage = ['not a cursor', 'abc', Buffer.from('{"a":1}').toString('base64url'), Buffer.from('["x"]').toString('base64url'), 'x'.repeat(1025)];
      for (const cursor of garbage) {
        const res = await orgGet(`/events/${eventId}/${list}?cursor=${encodeURIComponent(cursor)}`);
        expect(res.status, `${list} cursor=${cursor.slice(0, 20)}`).toBe(422);
        expect(res.body.code).toBe('validation_failed');
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['cursor']);
      }
    });
  });

  describe('GET /events/:id/registrations', () => {
    let eventId: string;
    let all: string[];

    beforeAll(async () => {
      eventId = await createEvent(t, org.key);
      const teams = await seedTeams(eventId, 105, {
        status: (i) => (['pending', 'approved', 'rejected'] as const)[i % 3]!,
        track: (i) => (i % 2 ? 'fun' : 'tools'),
      });
      all = teams.map((x) => x.registrationId).sort();
    });

    it('answers the first 100 by default, in id order, with a Link to the next page', async () => {
      const res = await orgGet(`/events/${eventId}/registrations`);
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body.map((r: { id: string }) => r.id)).toEqual(all.slice(0, 100));
      const next = nextPath(res);
      expect(next).not.toBeNull();
      const rest = await t.request('GET', next!, { key: org.key });
      expect(rest.body.map((r: { id: string }) => r.id)).toEqual(all.slice(100));
      expect(rest.headers.get('link')).toBeNull();
    });

    it('keeps the item shape of the single-answer list', async () => {
      const res = await orgGet(`/events/${eventId}/registrations?limit=1`);
      expect(Object.keys(res.body[0]).sort()).toEqual(
        [
          'attempt',
          'contact_email',
          'created_at',
          'event_id',
          'fields',
          'final',
          'github_url',
          'id',
          'member_count',
          'members',
          'next_step',
          'reapplied_at',
          'reapply_until',
          'reason',
          'status',
          'team_name',
          'track_id',
          'updated_at',
        ].sort(),
      );
    });

    it('walks every registration exactly once, in order, through Link rel="next"', async () => {
      const { items, sizes } = await walk(`/api/v1/events/${eventId}/registrations?limit=7`, org.key);
      expect(items.map((r) => r.id)).toEqual(all);
      expect(sizes.slice(0, -1).every((s) => s === 7)).toBe(true);
      expect(sizes.length).toBe(Math.ceil(105 / 7));
    });

    it('carries the filters into the next link and combines them with the cursor', async () => {
      const first = await orgGet(`/events/${eventId}/registrations?status=approved&track_id=fun&limit=4`);
      const next = nextPath(first)!;
      const params = new URL(`http://x${next}`).searchParams;
      expect(params.get('status')).toBe('approved');
      expect(params.get('track_id')).toBe('fun');
      expect(params.get('limit')).toBe('4');
      const { items } = await walk(`/api/v1/events/${eventId}/registrations?status=approved&track_id=fun&limit=4`, org.key);
      const expected = (
        await t.database.db
          .selectFrom('registrations')
          .select('id')
          .where('event_id', '=', eventId)
          .where('status', '=', 'approved')
          .where('track_id', '=', 'fun')
          .execute()
      )
        .map((r) => r.id)
        .sort();
      expect(expected.length).toBeGreaterThan(8);
      expect(items.map((r) => r.id)).toEqual(expected);
      expect(items.every((r) => r.status === 'approved' && r.track_id === 'fun')).toBe(true);
    });

    it('searches team names case-insensitively by prefix, ordered by name, across pages', async () => {
      const ev = await createEvent(t, org.key);
      const names = ['Zeta Rays', 'alpha one', 'ALPHA Two', 'Alphabet', 'Beta', 'alp', 'Ålpha', 'alpha three'];
      await seedTeams(ev, names.length, { name: (i) => names[i]!, status: (i) => (i === 3 ? 'pending' : 'approved') });
      const { items } = await walk(`/api/v1/events/${ev}/registrations?q=ALPha&limit=2`, org.key);
      expect(items.map((r) => r.team_name)).toEqual(['alpha one', 'alpha three', 'ALPHA Two', 'Alphabet']);
      const pending = await orgGet(`/events/${ev}/registrations?q=alpha&status=pending`);
      expect(pending.body.map((r: { team_name: string }) => r.team_name)).toEqual(['Alphabet']);
      expect((await orgGet(`/events/${ev}/registrations?q=nomatch`)).body).toEqual([]);
    });

    it('a cursor of one ordering is refused by the other (422 cursor)', async () => {
      const byName = nextPath(await orgGet(`/events/${eventId}/registrations?q=seeded&limit=1`))!;
      const cursor = new URL(`http://x${byName}`).searchParams.get('cursor')!;
      const res = await orgGet(`/events/${eventId}/registrations?cursor=${cursor}`);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ field: 'cursor', message: expect.any(String) }]);
    });

    it("refuses another event's cursor with 422 on field cursor", async () => {
      const other = await createEvent(t, org.key);
      await seedTeams(other, 3);
      const next = nextPath(await orgGet(`/events/${other}/registrations?limit=1`))!;
      const cursor = new URL(`http://x${next}`).searchParams.get('cursor')!;
      const res = await orgGet(`/events/${eventId}/registrations?cursor=${cursor}`);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors).toEqual([{ field: 'cursor', message: 'belongs to another event' }]);
      // The projects list does not take a registrations cursor either.
      const cross = await orgGet(`/events/${other}/projects?cursor=${cursor}`);
      expect(cross.status).toBe(422);
      expect(cross.body.errors.map((e: { field: string }) => e.field)).toEqual(['cursor']);
    });

    it('stays stable while teams register between pages: no existing row skipped or repeated', async () => {
      const ev = await createEvent(t, org.key);
      const before = (await seedTeams(ev, 20)).map((x) => x.registrationId).sort();
      const added: string[] = [];
      const { items } = await walk(`/api/v1/events/${ev}/registrations?limit=6`, org.key, async () => {
        for (let i = 0; i < 3; i++) {
          const team = await quickUser(t);
          const reg = await t.api('POST', `/events/${ev}/register`, { key: team.key, body: registrationBody() });
          expect(reg.status).toBe(201);
          added.push(reg.body.id);
        }
      });
      const ids = items.map((r) => r.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.filter((id) => before.includes(id))).toEqual(before);
      // Everything listed is in id order; rows added behind the cursor are simply not on this walk.
      expect([...ids].sort()).toEqual(ids);
      expect(ids.every((id) => before.includes(id) || added.includes(id))).toBe(true);
    });

    it('leaves authorization as it was: 401 without a key, 403 for a non-organizer, 404 for an unknown event', async () => {
      expect((await t.api('GET', `/events/${eventId}/registrations`)).status).toBe(401);
      const stranger = await quickUser(t, 'organizer');
      const res = await orgGet(`/events/${eventId}/registrations?limit=5`, stranger.key);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
      const cursor = new URL(`http://x${nextPath(await orgGet(`/events/${eventId}/registrations?limit=1`))!}`).searchParams.get('cursor')!;
      expect((await orgGet(`/events/${eventId}/registrations?cursor=${cursor}`, stranger.key)).status).toBe(403);
      const missing = await orgGet('/events/evt_nope/registrations');
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('event_not_found');
    });
  });

  describe('GET /events/:id/projects', () => {
    it('walks projects first submitted first, each once, while new projects arrive before and after the cursor', async () => {
      const ev = await createEvent(t, org.key);
      // Several projects share a submission instant: the id breaks the tie.
      const seeded = await seedTeams(ev, 23, { submittedAt: (i) => stamp(Math.floor(i / 3) * 1000) });
      const key = (p: { submitted_at: string; id: string }) => `${p.submitted_at} ${p.id}`;
      const expected = seeded.map((s, i) => `${stamp(Math.floor(i / 3) * 1000)} ${s.projectId}`).sort();
      const late: string[] = [];
      const { items } = await walk(`/api/v1/events/${ev}/projects?limit=5`, org.key, async (page) => {
        // One project "submitted" earlier than everything (behind the cursor), one later (ahead of it).
        await seedTeams(ev, 1, { submittedAt: () => stamp(-DAY + page) });
        const [ahead] = await seedTeams(ev, 1, { submittedAt: () => stamp(DAY + page) });
        late.push(`${stamp(DAY + page)} ${ahead!.projectId}`);
      });
      const keys = items.map(key);
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys.filter((k) => expected.includes(k))).toEqual(expected);
      expect(keys.filter((k) => !expected.includes(k))).toEqual(late);
      expect(items[0]).toMatchObject({ team_name: expect.any(String), registration_status: 'approved', description: 'x'.repeat(200) });
    });

    it('answers 100 by default and 403 to a non-organizer', async () => {
      const ev = await createEvent(t, org.key);
      await seedTeams(ev, 101, { submittedAt: (i) => stamp(i) });
      const res = await orgGet(`/events/${ev}/projects`);
      expect(res.body).toHaveLength(100);
      expect(nextPath(res)).toMatch(/limit=100&cursor=/);
      const stranger = await quickUser(t, 'organizer');
      expect((await orgGet(`/events/${ev}/projects`, stranger.key)).status).toBe(403);
    });
  });

  describe('GET /events/:id/reviews', () => {
    it('walks reviews grouped by project, each once, with status and project filters', async () => {
      const ev = await createEvent(t, org.key);
      const teams = await seedTeams(ev, 6, { submittedAt: (i) => stamp(i) });
      const models = ['anthropic/m1', 'openai/m2', 'openai/m3'];
      const rows = teams.flatMap((tm, i) =>
        models.map((m, j) => ({
          id: newId('rev'),
          event_id: ev,
          project_id: tm.projectId!,
          reviewer_kind: 'model',
          reviewer: m,
          group_key: m,
          status: (i + j) % 2 ? 'succeeded' : 'queued',
          attempts: 0,
          raw_reply: 'r'.repeat(50),
          created_at: stamp(0),
          updated_at: stamp(0),
        })),
      );
      await t.database.db
        .insertInto('reviews')
        .values(rows as any)
        .execute();
      const order = (r: { project_id: string; reviewer: string }) => `${r.project_id} ${r.reviewer}`;
      const expected = rows.map(order).sort();

      const { items } = await walk(`/api/v1/events/${ev}/reviews?limit=4`, org.key);
      expect(items.map(order)).toEqual(expected);
      expect(items[0]).not.toHaveProperty('raw_reply');

      const succeeded = await walk(`/api/v1/events/${ev}/reviews?status=succeeded&include_raw=true&limit=2`, org.key);
      expect(succeeded.items.map(order)).toEqual(
        rows
          .filter((r) => r.status === 'succeeded')
          .map(order)
          .sort(),
      );
      expect(succeeded.items.every((r) => r.raw_reply === 'r'.repeat(50))).toBe(true);

      const one = await walk(`/api/v1/events/${ev}/reviews?project_id=${teams[2]!.projectId}&limit=1`, org.key);
      expect(one.items.map((r) => r.reviewer)).toEqual(models);

      const stranger = await quickUser(t, 'organizer');
      expect((await orgGet(`/events/${ev}/reviews?limit=1`, stranger.key)).status).toBe(403);
    });
  });

  describe('GET /events/:id/reviewers', () => {
    it('pages reviewers, then unaccepted invitations, at most `limit` entries of both per page', async () => {
      const ev = await createEvent(t, org.key);
      const db = t.database.db;
      const reviewerIds: string[] = [];
      for (let i = 0; i < 5; i++) {
        const u = await quickUser(t);
        await db
          .insertInto('event_reviewers')
          .values({ event_id: ev, user_id: u.id, created_at: stamp(Math.floor(i / 2)) })
          .execute();
        reviewerIds.push(u.id);
      }
      const invitationIds: string[] = [];
      for (let i = 0; i < 4; i++) {
        const id = newId('inv');
        await db
          .insertInto('reviewer_invitations')
          .values({
            id,
            event_id: ev,
            email: `inv${i}-${id}@example.com`,
            token_hash: `hash-${id}`,
            invited_by: org.id,
            created_at: stamp(0),
            expires_at: stamp(7 * DAY),
            accepted_at: null,
            accepted_by: null,
          })
          .execute();
        invitationIds.push(id);
      }
      const expectedReviewers = reviewerIds
        .map((id, i) => ({ id, at: stamp(Math.floor(i / 2)) }))
        .sort((a, b) => (a.at === b.at ? (a.id < b.id ? -1 : 1) : a.at < b.at ? -1 : 1))
        .map((r) => r.id);

      const pages: any[] = [];
      let next: string | null = `/api/v1/events/${ev}/reviewers?limit=2`;
      while (next) {
        const res = await t.request('GET', next, { key: org.key });
        expect(res.status).toBe(200);
        expect(res.body.event_id).toBe(ev);
        pages.push(res.body);
        next = nextPath(res);
      }
      expect(pages.map((p) => p.reviewers.length + p.invitations.length)).toEqual([2, 2, 2, 2, 1]);
      // The page that finishes the reviewers starts the invitations.
      expect(pages[2]).toMatchObject({ reviewers: [expect.anything()], invitations: [expect.anything()] });
      expect(pages.flatMap((p) => p.reviewers.map((r: { user_id: string }) => r.user_id))).toEqual(expectedReviewers);
      expect(pages.flatMap((p) => p.invitations.map((i: { id: string }) => i.id))).toEqual([...invitationIds].sort());

      const single = await orgGet(`/events/${ev}/reviewers?limit=5`);
      expect(single.body.reviewers).toHaveLength(5);
      expect(single.body.invitations).toEqual([]);
      const rest = await t.request('GET', nextPath(single)!, { key: org.key });
      expect(rest.body.reviewers).toEqual([]);
      expect(rest.body.invitations).toHaveLength(4);
      expect(rest.headers.get('link')).toBeNull();

      const stranger = await quickUser(t, 'organizer');
      expect((await orgGet(`/events/${ev}/reviewers`, stranger.key)).status).toBe(403);
    });
  });

  describe('GET /events/:id/review-assignments', () => {
    it("pages a reviewer's projects, leaving out (and counting) their own team's", async () => {
      const ev = await createEvent(t, org.key);
      const teams = await seedTeams(ev, 9, { submittedAt: (i) => stamp(i * 10), status: (i) => (i === 8 ? 'rejected' : 'approved') });
      // The reviewer is the user behind team 4: a conflict of interest.
      const reviewer = teams[4]!;
      const reviewerKey = (await t.ctx.accounts.createKey(reviewer.userId)).key;
      await t.database.db
        .insertInto('event_reviewers')
        .values({ event_id: ev, user_id: reviewer.userId, created_at: stamp(0) })
        .execute();
      t.clock.set(T0.getTime() + 3 * DAY);

      const pages: any[] = [];
      let next: string | null = `/api/v1/events/${ev}/review-assignments?limit=3`;
      while (next) {
        const res = await t.request('GET', next, { key: reviewerKey });
        expect(res.status, res.text).toBe(200);
        pages.push(res.body);
        next = nextPath(res);
      }
      t.clock.set(T0);
      expect(pages.map((p) => p.projects.length)).toEqual([3, 3, 1]);
      expect(pages.every((p) => p.hidden_for_conflict_of_interest === 1 && p.event.id === ev && p.dimensions.length === 2)).toBe(true);
      const expected = teams.filter((_, i) => i !== 4 && i !== 8).map((x) => x.projectId);
      expect(pages.flatMap((p) => p.projects.map((x: { project_id: string }) => x.project_id))).toEqual(expected);

      // A cursor is the reviewer's own: another reviewer of the same event cannot use it.
      const other = await quickUser(t);
      await t.database.db
        .insertInto('event_reviewers')
        .values({ event_id: ev, user_id: other.id, created_at: stamp(0) })
        .execute();
      const first = await t.api('GET', `/events/${ev}/review-assignments?limit=1`, { key: reviewerKey });
      const cursor = new URL(`http://x${nextPath(first)!}`).searchParams.get('cursor')!;
      const foreign = await t.api('GET', `/events/${ev}/review-assignments?cursor=${cursor}`, { key: other.key });
      expect(foreign.status).toBe(422);
      expect(foreign.body.errors.map((e: { field: string }) => e.field)).toEqual(['cursor']);
      expect((await t.api('GET', `/events/${ev}/review-assignments?limit=1001`, { key: reviewerKey })).status).toBe(422);
      expect((await t.api('GET', `/events/${ev}/review-assignments`, { key: org.key })).status).toBe(403);
    });
  });
});
