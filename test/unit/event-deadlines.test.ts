import { describe, expect, it } from 'vitest';
import { publicationDeadlineErrors } from '../../src/events/event-config.js';

const NOW = new Date('2030-01-01T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const dates = (reg: number, sub: number) => ({ registration_deadline: at(reg), submission_deadline: at(sub) });

describe('publicationDeadlineErrors', () => {
  it('publishing as open needs the registration deadline strictly after now', () => {
    expect(publicationDeadlineErrors(dates(1, 1), 'open', NOW)).toEqual([]);
    for (const reg of [0, -1, -86_400_000]) {
      expect(publicationDeadlineErrors(dates(reg, 86_400_000), 'open', NOW).map((e) => e.field)).toEqual(['registration_deadline']);
    }
  });

  it('publishing straight into active needs only the submission deadline ahead', () => {
    expect(publicationDeadlineErrors(dates(-5, 1), 'active', NOW)).toEqual([]);
    expect(publicationDeadlineErrors(dates(-5, 0), 'active', NOW).map((e) => e.field)).toEqual(['submission_deadline']);
  });

  it('leaves unparseable dates to the config validation (no second error)', () => {
    expect(publicationDeadlineErrors({ registration_deadline: 'next tuesday', submission_deadline: '' }, 'open', NOW)).toEqual([]);
  });
});
