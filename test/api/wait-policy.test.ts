import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/app.js';
import type { Config } from '../../src/core/config.js';
import { LONG_POLL_MAX_SECONDS, POLL_MAX_SECONDS, POLL_MIN_SECONDS } from '../../src/core/wait-policy.js';
import { DIALECTS } from '../helpers/databases.js';
import { approvedTeam, createEvent, registrationBody, startTestApp, T0, type TestApp, type TestUser } from '../helpers/harness.js';
import { until } from '../helpers/until.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

describe.each(DIALECTS)('one waiting policy over REST (%s)', (dialect) => {
  let t: TestApp;
  let organizer: TestUser;
  const logged: Array<{ level: number; msg: string }> = [];

  beforeAll(async () => {
    const options = loggerOptions({ logLevel: 'warn', logFormat: 'json' } as Config, { isTTY: false }) as object;
    t = await startTestApp(dialect, {
      logger: { ...options, stream: { write: (line: string) => void logged.push(JSON.parse(line) as { level: number; msg: string }) } },
    });
    organizer = await t.user('organizer');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('my-registration takes ?wait= up to the policy maximum and caps more (200, not 422: as skill.md says)', async () => {
    t.clock.set(T0);
    const eventId = await createEvent(t, organizer.key);
    const { team } = await approvedTeam(t, eventId, organizer.key);
    const decided = await t.api('GET', `/events/${eventId}/my-registration?wait=${LONG_POLL_MAX_SECONDS}`, { key: team.key });
    expect(decided.status).toBe(200);
    expect(decided.body.status).toBe('approved');
    const tooLong = await t.api('GET', `/events/${eventId}/my-registration?wait=${LONG_POLL_MAX_SECONDS + 15}`, { key: team.key });
    expect(tooLong.status).toBe(200);
    expect(tooLong.body.status).toBe('approved');
    const negative = await t.api('GET', `/events/${eventId}/my-registration?wait=-1`, { key: team.key });
    expect(negative.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'wait' }] });
  });

  it('every document states the same maximum and cadence', async () => {
    const openapi = (await t.api('GET', '/openapi.json')).body;
    const params = openapi.paths['/api/v1/events/{id}/my-registration'].get.parameters as Array<{ name: string; schema: { maximum?: number } }>;
    const wait = params.find((p) => p.name === 'wait')!;
    // No maximum (a longer wait is capped, not refused); the description states the cap.
    expect(wait.schema.maximum).toBeUndefined();
    expect(JSON.stringify(wait)).toContain(`above ${LONG_POLL_MAX_SECONDS} (or MAX_WAIT_SECONDS): capped, not refused`);
    expect(Object.keys(openapi.paths['/api/v1/events/{id}/result'].get.responses['409'].headers)).toEqual(['X-Request-Id', 'Retry-After']);

    const skill = (await t.api('GET', '/skill.md')).text;
    expect(skill).toContain(`my-registration?wait=${LONG_POLL_MAX_SECONDS}"`);
    expect(skill).toContain(`(up to ${LONG_POLL_MAX_SECONDS} s)`);
    expect(skill).toContain('30, 60, 120, 240, 300, 300');
    for (const stale of ['wait=60', 'wait=30', 'maximum: 600']) expect(skill).not.toContain(stale);

    const notApproved = (await t.request('GET', '/problems/registration_not_approved')).text;
    expect(notApproved).toContain(`my-registration?wait=${LONG_POLL_MAX_SECONDS}`);
    expect(notApproved).toContain(`wait ${POLL_MIN_SECONDS} s`);
    const notPublished = (await t.request('GET', '/problems/results_not_published')).text;
    expect(notPublished).toContain('Retry-After');
    expect(notPublished).toContain(`(${POLL_MAX_SECONDS})`);
  });

  it('results_not_published carries the event status and a Retry-After; a cancelled event none', async () => {
    t.clock.set(T0);
    const eventId = await createEvent(t, organizer.key);
    const open = await t.api('GET', `/events/${eventId}/result`);
    expect(open.status).toBe(409);
    expect(open.headers.get('retry-after')).toBe(String(POLL_MAX_SECONDS));
    expect(open.body).toMatchObject({ code: 'results_not_published', event_status: 'open' });

    t.clock.set(T0.getTime() + 2 * DAY + HOUR);
    const judging = await t.api('GET', `/events/${eventId}/result`);
    expect(judging.headers.get('retry-after')).toBe(String(POLL_MAX_SECONDS));
    expect(judging.body).toMatchObject({ code: 'results_not_published', event_status: 'judging' });

    t.clock.set(T0);
    const other = await createEvent(t, organizer.key);
    expect((await t.api('PATCH', `/events/${other}`, { key: organizer.key, body: { status: 'cancelled' } })).status).toBe(200);
    const cancelled = await t.api('GET', `/events/${other}/result`);
    expect(cancelled.status).toBe(409);
    expect(cancelled.headers.get('retry-after')).toBeNull();
    expect(cancelled.body).toMatchObject({ code: 'results_not_published', event_status: 'cancelled' });
    expect(cancelled.body.detail).toMatch(/never be published/);
  });

  it('a REST client that leaves a long-poll frees the wait and is not logged', async () => {
    t.clock.set(T0);
    const eventId = await createEvent(t, organizer.key);
    const team = await t.user();
    expect((await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody() })).status).toBe(201);
    const before = t.ctx.registrations.waitsStarted();
    // Only what is logged from here on: the app's start may warn about its own configuration.
    const seen = logged.length;
    const abort = new AbortController();
    const call = fetch(`${t.url}/api/v1/events/${eventId}/my-registration?wait=${LONG_POLL_MAX_SECONDS}`, {
      headers: { authorization: `Bearer ${team.key}` },
      signal: abort.signal,
    });
    await until('the request to park', () => t.ctx.registrations.waitsStarted() === before + 1);
    abort.abort();
    await expect(call).rejects.toThrow();
    await until('no request to be waiting', () => t.ctx.registrations.waiting() === 0);
    expect(logged.slice(seen).filter((l) => l.level >= 40)).toEqual([]);
  });
});
