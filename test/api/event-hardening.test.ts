import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, eventBody, registrationBody, startTestApp, T0, type ApiResponse, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';

const DAY = 86_400_000;
const at = (ms: number) => new Date(T0.getTime() + ms).toISOString();
const fieldsOf = (res: ApiResponse) => (res.body.errors as Array<{ field: string }>).map((e) => e.field);

describe.each(DIALECTS)('event hardening (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => t?.close());
  beforeEach(() => t.clock.set(T0));

  const create = (body: unknown) => t.api('POST', '/events', { key: org.key, body });
  const agentCreate = (body: unknown) => t.request('POST', '/api/agent/events/create', { key: org.key, body });
  const patch = (id: string, body: unknown) => t.api('PATCH', `/events/${id}`, { key: org.key, body });

  describe('reserved object-key names', () => {
    it.each([
      [{ dimensions: [{ name: '__proto__', weight: 1 }] }, 'dimensions.0.name'],
      [
        {
          dimensions: [
            { name: 'impact', weight: 1 },
            { name: 'constructor', weight: 1 },
          ],
        },
        'dimensions.1.name',
      ],
      [{ dimensions: [{ name: ' prototype ', weight: 1 }] }, 'dimensions.0.name'],
      [{ registration_config: { fields: [{ key: '__proto__', label: 'x' }] } }, 'registration_config.fields.0.key'],
      [{ registration_config: { fields: [{ name: 'constructor' }] } }, 'registration_config.fields.0.key'],
      [{ tracks: [{ id: 'prototype', name: 'Proto' }] }, 'tracks.0.id'],
      [{ models: ['constructor/gpt'] }, 'models.0'],
    ])('are refused on create, on the agent endpoint and on PATCH: %j', async (over, field) => {
      const res = await create(eventBody(T0, over));
      expect(res.status, res.text).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(fieldsOf(res)).toEqual([field]);

      const agent = await agentCreate(eventBody(T0, over));
      expect(agent.status).toBe(422);
      expect(agent.body).toMatchObject({ success: false, code: 'validation_failed' });
      expect(fieldsOf(agent)).toEqual([field]);

      const id = await createEvent(t, org.key);
      const p = await patch(id, over);
      expect(p.status).toBe(422);
      expect(p.body.code).toBe('validation_failed');
      expect(fieldsOf(p)).toEqual([field]);
      // Nothing was stored: the event still reads and registers normally.
      const form = await t.api('GET', `/events/${id}/register`);
      expect(form.status).toBe(200);
      expect(form.body.fields.map((f: { key: string }) => f.key)).toEqual(['repo', 'why']);
    });

    it('answers registration answers keyed __proto__ with 400 and constructor with 422 naming the field', async () => {
      const id = await createEvent(t, org.key);
      const team = await quickUser(t);
      const proto = await t.api('POST', `/events/${id}/register`, {
        key: team.key,
        raw: '{"team_name": "Proto", "track_id": "tools", "fields": {"repo": "https://github.com/a/b", "__proto__": {"x": 1}}}',
        headers: { 'content-type': 'application/json' },
      });
      expect(proto.status).toBe(400);
      expect(proto.body.code).toBe('bad_request');
      const ctor = await t.api('POST', `/events/${id}/register`, {
        key: team.key,
        body: registrationBody({ fields: { repo: 'https://github.com/a/b', constructor: 'x' } }),
      });
      expect(ctor.status).toBe(422);
      expect(fieldsOf(ctor)).toEqual(['fields.constructor']);
    });
  });

  describe('deadlines of a published event lie in the future', () => {
    it.each([
      ['POST /events', (b: unknown) => create(b)],
      ['POST /api/agent/events/create', (b: unknown) => agentCreate(b)],
    ])('%s refuses a registration deadline at or before now, accepts 1 ms after', async (_name, send) => {
      for (const reg of [-DAY, -1, 0]) {
        const res = await send(eventBody(T0, { registration_deadline: at(reg), submission_deadline: at(DAY) }));
        expect(res.status, res.text).toBe(422);
        expect(res.body.code).toBe('validation_failed');
        expect(fieldsOf(res)).toEqual(['registration_deadline']);
      }
      // Both deadlines past (the event would start in judging): refused the same way.
      const both = await send(eventBody(T0, { registration_deadline: at(-2 * DAY), submission_deadline: at(-DAY) }));
      expect(both.status).toBe(422);
      expect(fieldsOf(both)).toEqual(['registration_deadline']);
      const ok = await send(eventBody(T0, { registration_deadline: at(1), submission_deadline: at(1) }));
      expect(ok.status, ok.text).toBe(201);
      expect((ok.body.data ?? ok.body).status).toBe('open');
    });

    it('follows the injected clock, not the wall clock', async () => {
      t.clock.set(T0.getTime() + 10 * DAY);
      const res = await create(eventBody(T0));
      expect(res.status).toBe(422);
      expect(fieldsOf(res)).toEqual(['registration_deadline']);
      expect((await create(eventBody(t.clock.now()))).status).toBe(201);
    });

    it('keeps the ordering rule: the submission deadline may not be before the registration deadline', async () => {
      const res = await create(eventBody(T0, { registration_deadline: at(2 * DAY), submission_deadline: at(DAY) }));
      expect(res.status).toBe(422);
      expect(fieldsOf(res)).toEqual(['submission_deadline']);
      const draft = await create(eventBody(T0, { status: 'draft', registration_deadline: at(-DAY), submission_deadline: at(-2 * DAY) }));
      expect(draft.status).toBe(422);
      expect(fieldsOf(draft)).toEqual(['submission_deadline']);
    });

    it('lets a draft hold past dates, refuses publishing it while the registration deadline has passed, accepts new dates in the same PATCH', async () => {
      const res = await create(eventBody(T0, { status: 'draft', registration_deadline: at(-2 * DAY), submission_deadline: at(-DAY) }));
      expect(res.status, res.text).toBe(201);
      expect(res.body.status).toBe('draft');
      const id = res.body.id as string;
      // Editing the draft's other fields (and dates) keeps working.
      expect((await patch(id, { description: 'still planning', registration_deadline: at(-3 * DAY) })).status).toBe(200);

      const publish = await patch(id, { status: 'open' });
      expect(publish.status).toBe(422);
      expect(publish.body.code).toBe('validation_failed');
      expect(fieldsOf(publish)).toEqual(['registration_deadline']);
      expect((await t.api('GET', `/events/${id}`, { key: org.key })).body.status).toBe('draft');

      const fixed = await patch(id, { status: 'open', registration_deadline: at(DAY), submission_deadline: at(2 * DAY) });
      expect(fixed.status, fixed.text).toBe(200);
      expect(fixed.body.status).toBe('open');
    });

    it('checks at publication time: a draft whose registration deadline passed meanwhile cannot open, but can go straight to active', async () => {
      const id = await createEvent(t, org.key, { status: 'draft' });
      const late = await createEvent(t, org.key, { status: 'draft' });
      t.clock.set(T0.getTime() + DAY); // exactly the registration deadline: the window is closed
      const open = await patch(id, { status: 'open' });
      expect(open.status).toBe(422);
      expect(fieldsOf(open)).toEqual(['registration_deadline']);
      const active = await patch(id, { status: 'active' });
      expect(active.status, active.text).toBe(200);
      expect(active.body.status).toBe('active');

      t.clock.set(T0.getTime() + 2 * DAY); // the submission deadline too
      const activeLate = await patch(late, { status: 'active' });
      expect(activeLate.status).toBe(422);
      expect(fieldsOf(activeLate)).toEqual(['submission_deadline']);
      // Straight to judging or cancelled is the organizer's explicit choice: no deadline rule.
      const judging = await patch(late, { status: 'judging' });
      expect(judging.status, judging.text).toBe(200);
      expect(judging.body.status).toBe('judging');
    });
  });
});
