import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickApprovedTeam, quickUser } from '../helpers/quick-users.js';

const project = (over: Record<string, unknown> = {}) => ({ project_name: 'PlanetPal', github_url: 'https://github.com/team/planetpal', ...over });

describe.each(DIALECTS)('project showcase (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;
  let eventId: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    org = await quickUser(t, 'organizer');
    eventId = await createEvent(t, org.key);
  });
  afterAll(async () => t?.close());

  const submit = (key: string, body: unknown, id = eventId) => t.api('POST', `/events/${id}/submit`, { key, body });

  describe('tagline and tags on submit', () => {
    it('stores a tagline and normalised tags, shows them everywhere the project appears, keeps them when left out', async () => {
      const { team } = await quickApprovedTeam(t, eventId, org.key);
      const first = await submit(
        team.key,
        project({ tagline: '  Your planet, your pal  ', tags: ['#Next JS', 'next_js', 'Rust', 'TypeScript'], description: '# PlanetPal\n\n**agent**' }),
      );
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({
        tagline: 'Your planet, your pal',
        tags: ['next-js', 'rust', 'typescript'],
        screenshots: [],
        video: null,
        description_html: expect.stringContaining('<strong>agent</strong>'),
      });
      expect(first.body.description_html).toContain('<h3>PlanetPal</h3>');

      // Left out: kept (a client of the old contract sends its fields whole and knows nothing of these).
      const again = await submit(team.key, project({ project_name: 'PlanetPal 2', demo_video_url: 'https://youtu.be/dQw4w9WgXcQ', description: '# PlanetPal\n\n**agent**' }));
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({
        project_name: 'PlanetPal 2',
        tagline: 'Your planet, your pal',
        tags: ['next-js', 'rust', 'typescript'],
        video: { provider: 'youtube', url: 'https://youtu.be/dQw4w9WgXcQ', embed_url: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ' },
      });

      const mine = await t.api('GET', `/events/${eventId}/my-registration`, { key: team.key });
      expect(mine.status).toBe(200);
      expect(mine.body.project).toMatchObject({ tagline: 'Your planet, your pal', tags: ['next-js', 'rust', 'typescript'], video: { provider: 'youtube' } });
      expect(mine.body.project.description_html).toContain('<strong>agent</strong>');
      const teamPage = await t.api('GET', `/events/${eventId}/team`, { key: team.key });
      expect(teamPage.status).toBe(200);
      expect(teamPage.body.project).toMatchObject({ tagline: 'Your planet, your pal', tags: ['next-js', 'rust', 'typescript'] });
      const list = await t.api('GET', `/events/${eventId}/projects`, { key: org.key });
      expect(list.body.find((p: { id: string }) => p.id === first.body.id)).toMatchObject({ tagline: 'Your planet, your pal', tags: ['next-js', 'rust', 'typescript'] });

      // Sent: replaced; "" and [] clear.
      const cleared = await submit(team.key, project({ tagline: '', tags: [] }));
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ tagline: null, tags: [] });
    });

    it('refuses a tagline over 140 characters or of two lines, more than 10 tags, a tag over 32 characters or empty', async () => {
      const { team } = await quickApprovedTeam(t, eventId, org.key);
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ tagline: 'x'.repeat(141) }, 'tagline'],
        [{ tagline: 'one\ntwo' }, 'tagline'],
        [{ tags: Array.from({ length: 11 }, (_, i) => `tag${i}`) }, 'tags'],
        [{ tags: ['a'.repeat(33)] }, 'tags'],
        [{ tags: ['###'] }, 'tags'],
      ];
      for (const [over, field] of cases) {
        const res = await submit(team.key, project(over));
        expect(res.status, JSON.stringify(over)).toBe(422);
        expect(res.body.code).toBe('validation_failed');
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      // Eleven given, ten once equal ones are merged: accepted.
      const merged = await submit(team.key, project({ tags: [...Array.from({ length: 10 }, (_, i) => `tag${i}`), 'TAG0'] }));
      expect(merged.status).toBe(201);
      expect(merged.body.tags).toHaveLength(10);
    });
  });
});
