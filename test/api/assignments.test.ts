import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';
import { registrationBody } from '../helpers/harness.js';

const DAY = 86_400_000;
let counter = 0;

describe.each(DIALECTS)('assigned reviewing (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await t.user('organizer');
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A user with an address of our choosing (the domain rule) and a key. */
  async function userAt(domain: string): Promise<TestUser> {
    const u = await t.ctx.accounts.createUser({ email: `u${++counter}-${Math.random().toString(36).slice(2, 7)}@${domain}`, role: 'user' });
    const k = await t.ctx.accounts.createKey(u.id);
    return { id: u.id, email: u.email, role: u.role, key: k.key };
  }

  /** An event (no AI models: only human reviews score) whose deadlines are relative to the test clock. */
  async function event() {
    return createEvent(t, org.key, { models: [], registration_config: { open: true, auto_approve: true, fields: [] } });
  }

  async function submitProject(eventId: string, team?: TestUser): Promise<{ id: string; team: TestUser }> {
    const who = team ?? (await quickUser(t));
    const reg = await t.api('POST', `/events/${eventId}/register`, { key: who.key, body: { ...registrationBody(), fields: {} } });
    expect(reg.status).toBe(201);
    const res = await t.api('POST', `/events/${eventId}/submit`, {
      key: who.key,
      body: { project_name: `Project ${++counter}`, github_url: `https://github.com/acme/p${counter}` },
    });
    expect(res.status).toBe(201);
    t.clock.advance(1000);
    return { id: res.body.id as string, team: who };
  }

  async function addReviewer(eventId: string, user?: TestUser): Promise<TestUser> {
    const u = user ?? (await quickUser(t));
    t.clock.advance(1000);
    await t.database.db.insertInto('event_reviewers').values({ event_id: eventId, user_id: u.id, created_at: t.clock.now().toISOString() }).execute();
    return u;
  }

  async function list(eventId: string) {
    const [res, summary] = await Promise.all([
      t.api('GET', `/events/${eventId}/assignments?limit=200`, { key: org.key }),
      t.api('GET', `/events/${eventId}/assignments/summary`, { key: org.key }),
    ]);
    expect(res.status).toBe(200);
    expect(summary.status).toBe(200);
    return {
      summary: summary.body,
      assignments: res.body as Array<{ project_id: string; reviewer_ids: string[]; reviewed_by: string[]; manual: boolean }>,
    };
  }

  function loads(rows: Array<{ reviewer_ids: string[] }>, reviewers: TestUser[]): number[] {
    return reviewers.map((r) => rows.filter((a) => a.reviewer_ids.includes(r.id)).length);
  }

  async function queue(eventId: string, reviewer: TestUser) {
    const res = await t.api('GET', `/events/${eventId}/review-assignments?limit=200`, { key: reviewer.key });
    expect(res.status).toBe(200);
    return res.body as { review_mode: string; projects: Array<{ project_id: string }> };
  }

  const judging = () => t.clock.advance(3 * DAY);

  it('assigns 2 per project over 12 projects and 4 reviewers: six each, and each queue lists only its six', async () => {
    const eventId = await event();
    const projects = [];
    for (let i = 0; i < 12; i++) projects.push((await submitProject(eventId)).id);
    const reviewers = [];
    for (let i = 0; i < 4; i++) reviewers.push(await addReviewer(eventId));

    const auto = await t.api('POST', `/events/${eventId}/assignments/auto`, { key: org.key, body: { per_project: 2 } });
    expect(auto.status).toBe(200);
    expect(auto.body).toMatchObject({
      review_mode: 'assigned',
      per_project: 2,
      projects: 12,
      reviewers: 4,
      assignments: 24,
      projects_short: 0,
      min_load: 6,
      max_load: 6,
    });

    const { assignments } = await list(eventId);
    expect(assignments.map((a) => a.project_id)).toEqual(projects);
    for (const a of assignments) expect(a.reviewer_ids).toHaveLength(2);
    expect(loads(assignments, reviewers)).toEqual([6, 6, 6, 6]);
    // The dashboard counts each reviewer's assigned projects, not every project.
    const stats = await t.api('GET', `/events/${eventId}/stats`, { key: org.key });
    expect(stats.body.reviewers.map((r: { assigned: number }) => r.assigned)).toEqual([6, 6, 6, 6]);
    // Pages: 5 projects, then the rest by the Link header's cursor.
    const first = await t.api('GET', `/events/${eventId}/assignments?limit=5`, { key: org.key });
    expect(first.body).toHaveLength(5);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')![1]!;
    const nextUrl = new URL(next);
    const second = await t.request('GET', nextUrl.pathname + nextUrl.search, { key: org.key });
    expect(second.body.map((a: { project_id: string }) => a.project_id)).toEqual(projects.slice(5, 10));

    judging();
    for (const r of reviewers) {
      const q = await queue(eventId, r);
      expect(q.review_mode).toBe('assigned');
      const mine = assignments.filter((a) => a.reviewer_ids.includes(r.id)).map((a) => a.project_id);
      expect(q.projects.map((p) => p.project_id)).toEqual(mine);
    }

    // Reviewing a project not assigned to you: 403 project_not_assigned; your own: 201.
    const r0 = reviewers[0]!;
    const notMine = assignments.find((a) => !a.reviewer_ids.includes(r0.id))!.project_id;
    const mine = assignments.find((a) => a.reviewer_ids.includes(r0.id))!.project_id;
    const refused = await t.api('PUT', `/events/${eventId}/projects/${notMine}/review`, { key: r0.key, body: { scores: { impact: 5, craft: 5 } } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('project_not_assigned');
    const ok = await t.api('PUT', `/events/${eventId}/projects/${mine}/review`, { key: r0.key, body: { scores: { impact: 5, craft: 5 } } });
    expect(ok.status).toBe(201);
    // What each reviewer still owes (the reviewers tab, reminders) counts their assignments only.
    const owed = await t.api('GET', `/events/${eventId}/reviewers`, { key: org.key });
    const openOf = new Map((owed.body.reviewers as Array<{ user_id: string; open_reviews: number }>).map((r) => [r.user_id, r.open_reviews]));
    expect(reviewers.map((r) => openOf.get(r.id))).toEqual([5, 6, 6, 6]);
  });

  it('keeps teams away from their own project, and honours declared and same e-mail domain conflicts', async () => {
    const eventId = await event();
    // A reviewer who is on a team of this event, and a team sharing an e-mail domain with a reviewer.
    const insider = await userAt('insider.test');
    const own = await submitProject(eventId, insider);
    const acmeTeam = await userAt('acme.test');
    const acme = await submitProject(eventId, acmeTeam);
    const others = [];
    for (let i = 0; i < 4; i++) others.push((await submitProject(eventId)).id);
    const acmeReviewer = await addReviewer(eventId, await userAt('acme.test'));
    await addReviewer(eventId, insider);
    // (The other teams are @example.com: a reviewer there would conflict with all of them.)
    const plain = await addReviewer(eventId, await userAt('plain.test'));

    const auto = await t.api('POST', `/events/${eventId}/assignments/auto`, {
      key: org.key,
      body: { per_project: 2, same_email_domain_conflicts: true },
    });
    expect(auto.status).toBe(200);
    expect(auto.body.same_email_domain_conflicts).toBe(true);
    let rows = await list(eventId);
    const of = (pid: string) => rows.assignments.find((a) => a.project_id === pid)!.reviewer_ids;
    expect(of(own.id)).not.toContain(insider.id);
    expect(of(acme.id)).not.toContain(acmeReviewer.id);
    expect(of(own.id)).toHaveLength(2);
    expect(of(acme.id)).toHaveLength(2);

    // Setting a conflicted reviewer by hand: 403 conflict_of_interest, naming them.
    const byHand = await t.api('PUT', `/events/${eventId}/assignments/${acme.id}`, { key: org.key, body: { reviewer_ids: [acmeReviewer.id] } });
    expect(byHand.status).toBe(403);
    expect(byHand.body).toMatchObject({ code: 'conflict_of_interest', reviewer_ids: [acmeReviewer.id] });

    // The organizer records a conflict: the pair goes, another reviewer takes the project.
    const target = others.find((p) => of(p).includes(plain.id))!;
    const record = await t.api('POST', `/events/${eventId}/reviewers/${plain.id}/conflicts/${target}`, { key: org.key });
    expect(record.status).toBe(204);
    rows = await list(eventId);
    expect(of(target)).not.toContain(plain.id);
    expect(of(target)).toHaveLength(2);
    const removeUnknown = await t.api('DELETE', `/events/${eventId}/reviewers/${plain.id}/conflicts/${others.find((p) => p !== target)!}`, { key: org.key });
    expect(removeUnknown.status).toBe(404);
    expect(removeUnknown.body.code).toBe('not_found');
    const remove = await t.api('DELETE', `/events/${eventId}/reviewers/${plain.id}/conflicts/${target}`, { key: org.key });
    expect(remove.status).toBe(204);

    // A reviewer declares their own conflict from their queue: the project leaves it.
    judging();
    const before = await queue(eventId, acmeReviewer);
    const leaving = before.projects[0]!.project_id;
    const declare = await t.api('POST', `/events/${eventId}/projects/${leaving}/conflict`, { key: acmeReviewer.key });
    expect(declare.status).toBe(204);
    const after = await queue(eventId, acmeReviewer);
    expect(after.projects.map((p) => p.project_id)).not.toContain(leaving);
    const review = await t.api('PUT', `/events/${eventId}/projects/${leaving}/review`, { key: acmeReviewer.key, body: { scores: { impact: 1, craft: 1 } } });
    expect(review.status).toBe(403);
    expect(review.body.code).toBe('conflict_of_interest');
    // Someone who is no reviewer cannot declare.
    const stranger = await quickUser(t);
    const strangerDeclare = await t.api('POST', `/events/${eventId}/projects/${leaving}/conflict`, { key: stranger.key });
    expect(strangerDeclare.status).toBe(403);
    expect(strangerDeclare.body.code).toBe('forbidden');
  });

  it('reassigns by hand, validates reviewers, and refuses outside assigned reviewing or for others', async () => {
    const eventId = await event();
    const p1 = (await submitProject(eventId)).id;
    await submitProject(eventId);
    const reviewers = [await addReviewer(eventId), await addReviewer(eventId), await addReviewer(eventId)];

    const everyMode = await t.api('PUT', `/events/${eventId}/assignments/${p1}`, { key: org.key, body: { reviewer_ids: [reviewers[0]!.id] } });
    expect(everyMode.status).toBe(409);
    expect(everyMode.body.code).toBe('not_assigned_mode');
    expect((await list(eventId)).summary).toMatchObject({ review_mode: 'every', per_project: null });

    expect((await t.api('POST', `/events/${eventId}/assignments/auto`, { key: org.key, body: { per_project: 1 } })).status).toBe(200);
    const set = await t.api('PUT', `/events/${eventId}/assignments/${p1}`, { key: org.key, body: { reviewer_ids: [reviewers[2]!.id, reviewers[0]!.id] } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ project_id: p1, reviewer_ids: [reviewers[0]!.id, reviewers[2]!.id].sort(), manual: true });
    const row = (await list(eventId)).assignments.find((a) => a.project_id === p1)!;
    expect(row).toMatchObject({ manual: true });
    expect([...row.reviewer_ids].sort()).toEqual([reviewers[0]!.id, reviewers[2]!.id].sort());

    const unknown = await t.api('PUT', `/events/${eventId}/assignments/${p1}`, { key: org.key, body: { reviewer_ids: [reviewers[0]!.id, 'usr_nobody'] } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('validation_failed');
    expect(unknown.body.errors).toEqual([{ field: 'reviewer_ids.1', message: 'usr_nobody is not a reviewer of this event' }]);
    const noProject = await t.api('PUT', `/events/${eventId}/assignments/prj_nothing`, { key: org.key, body: { reviewer_ids: [] } });
    expect(noProject.status).toBe(404);
    expect(noProject.body.code).toBe('project_not_found');
    const badK = await t.api('POST', `/events/${eventId}/assignments/auto`, { key: org.key, body: { per_project: 0 } });
    expect(badK.status).toBe(422);
    expect(badK.body.code).toBe('validation_failed');

    const other = await t.user('organizer');
    for (const [method, path, body] of [
      ['GET', `/events/${eventId}/assignments`, undefined],
      ['POST', `/events/${eventId}/assignments/auto`, { per_project: 1 }],
      ['PUT', `/events/${eventId}/assignments/${p1}`, { reviewer_ids: [] }],
      ['POST', `/events/${eventId}/reviewers/${reviewers[0]!.id}/conflicts/${p1}`, undefined],
    ] as const) {
      const res = await t.api(method, path, { key: other.key, ...(body ? { body } : {}) });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }

    // [] hands the project back to the automatic rule: topped up to k again.
    const back = await t.api('PUT', `/events/${eventId}/assignments/${p1}`, { key: org.key, body: { reviewer_ids: [] } });
    expect(back.status).toBe(200);
    expect(back.body.manual).toBe(false);
    expect(back.body.reviewer_ids).toHaveLength(1);

    // An empty change changes nothing.
    const nothing = await t.api('PATCH', `/events/${eventId}/assignments`, { key: org.key, body: {} });
    expect(nothing.status).toBe(200);
    expect(nothing.body).toMatchObject({ review_mode: 'assigned', per_project: 1 });

    // Back to every mode: every reviewer sees every project again.
    const every = await t.api('PATCH', `/events/${eventId}/assignments`, { key: org.key, body: { review_mode: 'every' } });
    expect(every.status).toBe(200);
    expect(every.body.review_mode).toBe('every');
    judging();
    const q = await queue(eventId, reviewers[1]!);
    expect(q.review_mode).toBe('every');
    expect(q.projects).toHaveLength(2);
  });

  it('assigns new projects and new reviewers as they come, keeping loads within one', async () => {
    const eventId = await event();
    for (let i = 0; i < 6; i++) await submitProject(eventId);
    const reviewers = [await addReviewer(eventId), await addReviewer(eventId)];
    expect((await t.api('POST', `/events/${eventId}/assignments/auto`, { key: org.key, body: { per_project: 1 } })).status).toBe(200);
    expect(loads((await list(eventId)).assignments, reviewers)).toEqual([3, 3]);

    // A project submitted after the automatic assignment gets its reviewer.
    const late = await submitProject(eventId);
    let rows = (await list(eventId)).assignments;
    expect(rows.find((a) => a.project_id === late.id)!.reviewer_ids).toHaveLength(1);
    expect(rows.every((a) => a.reviewer_ids.length === 1)).toBe(true);

    // A reviewer who joins takes a share of the unreviewed work.
    reviewers.push(await addReviewer(eventId));
    rows = (await list(eventId)).assignments;
    const l = loads(rows, reviewers);
    expect(l.reduce((a, b) => a + b, 0)).toBe(7);
    expect(Math.max(...l) - Math.min(...l)).toBeLessThanOrEqual(1);

    // Two reads at once converge on the same single assignment per project (the unique pair, the event lock).
    await submitProject(eventId);
    const [a, b] = await Promise.all([list(eventId), list(eventId)]);
    expect(a.assignments.map((x) => x.reviewer_ids.length)).toEqual(Array(8).fill(1));
    expect(b.assignments.map((x) => x.reviewer_ids.length)).toEqual(Array(8).fill(1));

    // A removed reviewer's projects go to the others.
    const gone = reviewers.pop()!;
    expect((await t.api('DELETE', `/events/${eventId}/reviewers/${gone.id}`, { key: org.key })).status).toBe(204);
    rows = (await list(eventId)).assignments;
    expect(rows.every((x) => x.reviewer_ids.length === 1 && !x.reviewer_ids.includes(gone.id))).toBe(true);
    expect(loads(rows, reviewers)).toEqual([4, 4]);
  });

  it('refuses to publish while assigned reviews are open (409 unfinished_judging, with the numbers) unless forced', async () => {
    const eventId = await event();
    for (let i = 0; i < 4; i++) await submitProject(eventId);
    const reviewers = [await addReviewer(eventId), await addReviewer(eventId), await addReviewer(eventId)];
    expect((await t.api('POST', `/events/${eventId}/assignments/auto`, { key: org.key, body: { per_project: 2 } })).status).toBe(200);
    judging();
    const rows = (await list(eventId)).assignments;
    // Each project's first assigned reviewer reviews it: every project is scored, half the assignments are open.
    for (const a of rows) {
      const r = reviewers.find((x) => x.id === a.reviewer_ids[0])!;
      const put = await t.api('PUT', `/events/${eventId}/projects/${a.project_id}/review`, { key: r.key, body: { scores: { impact: 6, craft: 6 } } });
      expect(put.status).toBe(201);
    }
    const open = new Set(rows.map((a) => a.reviewer_ids[1]!));
    const refused = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'unfinished_judging',
      mode: 'assigned',
      projects_unfinished: 4,
      reviewers_unfinished: open.size,
      open_assignments: 4,
    });
    expect(refused.body.detail).toContain('4 project(s) have fewer human reviews than reviewers assigned');
    expect((await list(eventId)).assignments.map((a) => a.reviewed_by.length)).toEqual([1, 1, 1, 1]);

    const forced = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key, body: { force: true } });
    expect(forced.status).toBe(200);
    const late = await t.api('POST', `/events/${eventId}/assignments/auto`, { key: org.key, body: { per_project: 1 } });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('results_already_published');
  });

  it('publishes as before when the event has no reviewers, and when every assigned review is in', async () => {
    const eventId = await event();
    await submitProject(eventId);
    const reviewer = await addReviewer(eventId);
    expect((await t.api('POST', `/events/${eventId}/assignments/auto`, { key: org.key, body: { per_project: 1 } })).status).toBe(200);
    judging();
    const [a] = (await list(eventId)).assignments;
    expect(
      (await t.api('PUT', `/events/${eventId}/projects/${a!.project_id}/review`, { key: reviewer.key, body: { scores: { impact: 7, craft: 7 } } })).status,
    ).toBe(201);
    const published = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key });
    expect(published.status).toBe(200);
  });
});
