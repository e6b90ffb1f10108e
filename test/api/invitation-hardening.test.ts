import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByEmail } from '../../src/accounts/accounts-repo.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';

const LINK = /http:\/\/hackathon\.test\/invitations\/([A-Za-z0-9_-]{43})/;

describe.each(DIALECTS)('invitation hardening (%s)', (dialect) => {
  let t: TestApp;
  let outbox: string;
  let org: TestUser;
  const seen = new Set<string>();

  /** Invites through the API and reads the token from the new outbox mail. */
  async function inviteToken(eventId: string, email: string): Promise<string> {
    const res = await t.api('POST', `/events/${eventId}/reviewers`, { key: org.key, body: { email } });
    expect(res.status, res.text).toBe(201);
    const fresh = readdirSync(outbox).filter((f) => !seen.has(f));
    expect(fresh).toHaveLength(1);
    seen.add(fresh[0]!);
    const m = LINK.exec(readFileSync(join(outbox, fresh[0]!), 'utf8').replace(/=\r?\n/g, ''));
    if (!m) throw new Error('no invitation link in the outbox mail');
    return m[1]!;
  }
  const accept = (token: string, body: Record<string, unknown>) => t.api('POST', `/invitations/${token}/accept`, { body });
  const keysOf = async (userId: string) =>
    t.ctx.db.selectFrom('api_keys').select(['id', 'scope', 'revoked_at']).where('user_id', '=', userId).orderBy('id').execute();

  beforeAll(async () => {
    outbox = mkdtempSync(join(tmpdir(), 'hk-inv-hard-'));
    t = await startTestApp(dialect, { env: { OUTBOX_DIR: outbox, REVIEW_WORKERS: 'false' } });
    org = await t.user('organizer');
  });
  afterAll(async () => {
    await t?.close();
    rmSync(outbox, { recursive: true, force: true });
  });

  describe('invitations of a cancelled or ended event are closed', () => {
    it('cancelled: reading and accepting answer 410 invitation_closed; no account is made', async () => {
      const eventId = await createEvent(t, org.key, { name: 'Cancelled Hack' });
      const token = await inviteToken(eventId, 'late@closed.test');
      expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'cancelled' } })).status).toBe(200);

      const read = await t.api('GET', `/invitations/${token}`);
      expect(read.status).toBe(410);
      expect(read.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(read.body.code).toBe('invitation_closed');
      expect(read.body.detail).toContain('cancelled');

      const acc = await accept(token, { password: 'a good password' });
      expect(acc.status).toBe(410);
      expect(acc.body.code).toBe('invitation_closed');
      expect(await findUserByEmail(t.ctx.db, 'late@closed.test')).toBeUndefined();
    });

    it('ended (results published): 410 invitation_closed on reading and accepting', async () => {
      const eventId = await createEvent(t, org.key, { name: 'Ended Hack' });
      const token = await inviteToken(eventId, 'after@closed.test');
      expect((await t.api('PATCH', `/events/${eventId}`, { key: org.key, body: { status: 'judging' } })).status).toBe(200);
      const published = await t.api('POST', `/events/${eventId}/results/publish`, { key: org.key });
      expect(published.status, published.text).toBe(200);

      const read = await t.api('GET', `/invitations/${token}`);
      expect([read.status, read.body.code]).toEqual([410, 'invitation_closed']);
      expect(read.body.detail).toContain('ended');
      const acc = await accept(token, { password: 'a good password' });
      expect([acc.status, acc.body.code]).toEqual([410, 'invitation_closed']);
      expect(await findUserByEmail(t.ctx.db, 'after@closed.test')).toBeUndefined();
    });
  });

  describe('invitation keys are review-scoped and not multiplied', () => {
    let eventA: string;
    let eventB: string;
    let eventC: string;
    let reviewKey: string;
    let reviewKeyId: string;
    let reviewerId: string;
    let tokenA: string;

    beforeAll(async () => {
      eventA = await createEvent(t, org.key, { name: 'Scope A' });
      eventB = await createEvent(t, org.key, { name: 'Scope B' });
      eventC = await createEvent(t, org.key, { name: 'Scope C' });
    });

    it('accepting issues one review-scoped key, with Cache-Control: no-store', async () => {
      tokenA = await inviteToken(eventA, 'judge@scope.test');
      const read = await t.api('GET', `/invitations/${tokenA}`);
      expect(read.status).toBe(200);
      expect(read.headers.get('cache-control')).toBe('no-store');

      const res = await accept(tokenA, { password: 'a good password' });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body.api_key).toMatchObject({ scope: 'review', key: expect.stringMatching(/^hk_/) });
      expect(res.body.existing_key).toBeNull();
      expect(res.body.revoked_key_ids).toEqual([]);
      reviewKey = res.body.api_key.key;
      reviewKeyId = res.body.api_key.id;
      reviewerId = res.body.user.id;
      expect(await keysOf(reviewerId)).toEqual([{ id: reviewKeyId, scope: 'review', revoked_at: null }]);
    });

    it('error answers of the accept endpoint are not cached either', async () => {
      const res = await accept('x'.repeat(43), { password: 'whatever1' });
      expect([res.status, res.body.code]).toEqual([404, 'invitation_not_found']);
      expect(res.headers.get('cache-control')).toBe('no-store');
    });

    it('a review key works on the reviewer routes only; everything else is 403 forbidden', async () => {
      const assignments = await t.api('GET', `/events/${eventA}/review-assignments`, { key: reviewKey });
      expect(assignments.status, assignments.text).toBe(200);
      // Past the scope check: the event is not judging yet, and nothing is reviewed.
      const put = await t.api('PUT', `/events/${eventA}/projects/prj_none/review`, { key: reviewKey, body: { scores: {} } });
      expect([put.status, put.body.code]).toEqual([404, 'project_not_found']);
      const get = await t.api('GET', `/events/${eventA}/projects/prj_none/review`, { key: reviewKey });
      expect([get.status, get.body.code]).toEqual([404, 'project_not_found']);
      const used = await t.api('GET', `/invitations/${tokenA}`, { key: reviewKey });
      expect([used.status, used.body.code]).toEqual([410, 'invitation_used']);

      for (const [method, path, body] of [
        ['GET', '/events', undefined],
        ['GET', `/events/${eventA}`, undefined],
        ['POST', '/events', { name: 'x' }],
        ['PATCH', `/events/${eventA}`, { status: 'cancelled' }],
        ['POST', `/events/${eventA}/register`, { team_name: 'Sneaky' }],
        ['GET', `/events/${eventA}/reviewers`, undefined],
        ['GET', `/events/${eventA}/leaderboard`, undefined],
      ] as const) {
        const res = await t.api(method, path, { key: reviewKey, ...(body ? { body } : {}) });
        expect([res.status, res.body.code], `${method} ${path}`).toEqual([403, 'forbidden']);
        expect(res.body.detail).toContain('limited to reviewing');
      }
      const unknown = await t.api('GET', '/no/such/route', { key: reviewKey });
      expect(unknown.status).toBe(404);
    });

    it('the same user keeps full access through a full key', async () => {
      const full = await t.ctx.accounts.createKey(reviewerId);
      expect(full.scope).toBe('full');
      expect((await t.api('GET', '/events', { key: full.key })).status).toBe(200);
      await t.ctx.accounts.revokeKey(full.id);
    });

    it('a used token stays 410 invitation_used and mints nothing', async () => {
      const before = await keysOf(reviewerId);
      const again = await accept(tokenA, { password: 'a good password' });
      expect([again.status, again.body.code]).toEqual([410, 'invitation_used']);
      expect(await keysOf(reviewerId)).toEqual(before);
    });

    it('a second invitation to a reviewer holding a review key reuses it: no new key', async () => {
      const token = await inviteToken(eventB, 'judge@scope.test');
      const before = (await keysOf(reviewerId)).length;
      const res = await accept(token, { password: 'a good password' });
      expect(res.status, res.text).toBe(200);
      expect(res.body.account_created).toBe(false);
      expect(res.body.api_key).toBeNull();
      expect(res.body.existing_key).toMatchObject({ id: reviewKeyId, scope: 'review', prefix: reviewKey.slice(0, 11) });
      expect(res.body.existing_key).not.toHaveProperty('key');
      expect((await keysOf(reviewerId)).length).toBe(before);
      // The held key now reaches the new event too.
      expect((await t.api('GET', `/events/${eventB}/review-assignments`, { key: reviewKey })).status).toBe(200);
    });

    it('replace_key revokes the held review key and issues a new one', async () => {
      const token = await inviteToken(eventC, 'judge@scope.test');
      const res = await accept(token, { password: 'a good password', replace_key: true });
      expect(res.status, res.text).toBe(200);
      expect(res.body.api_key.scope).toBe('review');
      expect(res.body.revoked_key_ids).toEqual([reviewKeyId]);
      expect((await t.api('GET', `/events/${eventC}/review-assignments`, { key: reviewKey })).status).toBe(401);
      expect((await t.api('GET', `/events/${eventA}/review-assignments`, { key: res.body.api_key.key })).status).toBe(200);
      const working = (await keysOf(reviewerId)).filter((k) => k.revoked_at === null);
      expect(working).toEqual([{ id: res.body.api_key.id, scope: 'review', revoked_at: null }]);
    });

    it('two invitations accepted at once by one person still make one review key', async () => {
      const events = [await createEvent(t, org.key, { name: 'Race 1' }), await createEvent(t, org.key, { name: 'Race 2' })];
      const tokens = [await inviteToken(events[0]!, 'racer@scope.test'), await inviteToken(events[1]!, 'racer@scope.test')];
      const results = await Promise.all(tokens.map((tk) => accept(tk, { password: 'a good password' })));
      expect(results.map((r) => r.status)).toEqual([200, 200]);
      const issued = results.filter((r) => r.body.api_key !== null);
      const reused = results.filter((r) => r.body.api_key === null);
      expect([issued.length, reused.length]).toEqual([1, 1]);
      expect(reused[0]!.body.existing_key.id).toBe(issued[0]!.body.api_key.id);
      const userId = issued[0]!.body.user.id as string;
      expect(await keysOf(userId)).toEqual([{ id: issued[0]!.body.api_key.id, scope: 'review', revoked_at: null }]);
    });

    it('issueReviewKey serialises per user: eight concurrent calls issue one key', async () => {
      const u = await t.ctx.accounts.createUser({ email: 'burst@scope.test' });
      const results = await Promise.all(Array.from({ length: 8 }, () => t.ctx.accounts.issueReviewKey(u.id, { name: 'burst', replace: false })));
      expect(results.filter((r) => r.issued !== null)).toHaveLength(1);
      expect((await keysOf(u.id)).filter((k) => k.revoked_at === null)).toHaveLength(1);
    });

    it('keys made before scopes existed (no scope written) and by createKey (the CLI) are full', async () => {
      const row = await t.ctx.db.selectFrom('api_keys').select('scope').where('user_id', '=', org.id).executeTakeFirstOrThrow();
      expect(row.scope).toBe('full');
      await t.ctx.db
        .insertInto('api_keys')
        .values({
          id: 'key_legacy',
          user_id: org.id,
          name: 'legacy',
          prefix: 'hk_legacy0',
          key_hash: 'legacy-hash',
          created_at: '2029-01-01T00:00:00.000Z',
          expires_at: null,
          revoked_at: null,
          last_used_at: null,
        })
        .execute();
      const legacy = await t.ctx.db.selectFrom('api_keys').select('scope').where('id', '=', 'key_legacy').executeTakeFirstOrThrow();
      expect(legacy.scope).toBe('full');
    });
  });
});
