import { describe, expect, it } from 'vitest';
import { registrationClosedDetail, submissionClosedDetail, type ClosedWindowInput } from '../../src/events/closed-reasons.js';

const REG = '2030-01-02T00:00:00.000Z';
const SUB = '2030-01-03T00:00:00.000Z';
const base: ClosedWindowInput = {
  status: 'open',
  registration_deadline: REG,
  submission_deadline: SUB,
  registration_open: true,
  result_announced_at: null,
  status_changed_at: null,
};
const at = (iso: string) => new Date(iso);
const ev = (over: Partial<ClosedWindowInput>): ClosedWindowInput => ({ ...base, ...over });

describe('submissionClosedDetail', () => {
  it('names the date of an early move to judging, and never a future deadline as past', () => {
    const d = submissionClosedDetail(ev({ status: 'judging', status_changed_at: '2030-01-01T10:00:00.000Z' }), at('2030-01-01T12:00:00Z'));
    expect(d).toMatch(/closed submissions early: the event was moved to judging on 2030-01-01T10:00:00\.000Z, before the submission deadline 2030-01-03/);
    expect(d).not.toMatch(/closed at|passed/);
  });

  it('still says the move was early after the deadline has passed, when the date is known', () => {
    const d = submissionClosedDetail(ev({ status: 'judging', status_changed_at: '2030-01-01T10:00:00.000Z' }), at('2030-02-01T00:00:00Z'));
    expect(d).toMatch(/early.*on 2030-01-01T10:00:00\.000Z/);
  });

  it('without a recorded date, says the organizer moved the event while the deadline is ahead', () => {
    const d = submissionClosedDetail(ev({ status: 'judging' }), at('2030-01-01T12:00:00Z'));
    expect(d).toMatch(/the organizer closed submissions early: the event was moved to judging, before the submission deadline/);
  });

  it('says the deadline passed when the clock closed the window', () => {
    expect(submissionClosedDetail(ev({ status: 'active' }), at(SUB))).toMatch(
      /the submission deadline passed at 2030-01-03T00:00:00\.000Z; the event is judging/,
    );
  });

  it('says the event was cancelled, with the date when known', () => {
    expect(submissionClosedDetail(ev({ status: 'cancelled', status_changed_at: '2030-01-01T09:00:00.000Z' }), at('2030-01-01T12:00:00Z'))).toMatch(
      /the organizer cancelled the event on 2030-01-01T09:00:00\.000Z/,
    );
    expect(submissionClosedDetail(ev({ status: 'cancelled' }), at('2030-01-01T12:00:00Z'))).toMatch(/the organizer cancelled the event\.$/);
  });

  it('says a draft is not published', () => {
    expect(submissionClosedDetail(ev({ status: 'draft' }), at('2030-01-01T12:00:00Z'))).toMatch(/not published yet/);
  });

  it('after publication, tells early closing from a passed deadline', () => {
    const early = ev({ status: 'ended', result_announced_at: '2030-01-01T20:00:00.000Z', status_changed_at: '2030-01-01T10:00:00.000Z' });
    expect(submissionClosedDetail(early, at('2030-01-01T21:00:00Z'))).toMatch(
      /early: the event was moved to judging on 2030-01-01T10:00:00\.000Z.*results were published at 2030-01-01T20:00:00\.000Z/,
    );
    const late = ev({ status: 'ended', result_announced_at: '2030-01-04T00:00:00.000Z' });
    expect(submissionClosedDetail(late, at('2030-01-05T00:00:00Z'))).toMatch(
      /the submission deadline passed at 2030-01-03T00:00:00\.000Z; results were published/,
    );
  });
});

describe('registrationClosedDetail', () => {
  const noon = at('2030-01-01T12:00:00Z');
  it('names an early move by the organizer, with its date', () => {
    expect(registrationClosedDetail(ev({ status: 'active', status_changed_at: '2030-01-01T11:00:00.000Z' }), noon)).toMatch(
      /the organizer closed registration early: the event was moved to active on 2030-01-01T11:00:00\.000Z, before the registration deadline 2030-01-02T00:00:00\.000Z; the event is now active/,
    );
    expect(registrationClosedDetail(ev({ status: 'judging' }), noon)).toMatch(/closed registration early: the event was moved to judging, before/);
  });

  it('names the closed form', () => {
    expect(registrationClosedDetail(ev({ registration_open: false }), noon)).toMatch(/registration_config\.open is false/);
  });

  it('names the passed deadline', () => {
    expect(registrationClosedDetail(ev({}), at(REG))).toMatch(/the registration deadline passed at 2030-01-02T00:00:00\.000Z; the event is now active/);
  });

  it('names a cancelled, ended or unpublished event', () => {
    expect(registrationClosedDetail(ev({ status: 'cancelled' }), noon)).toMatch(/cancelled the event/);
    expect(registrationClosedDetail(ev({ status: 'ended', result_announced_at: '2030-01-05T00:00:00.000Z' }), at('2030-01-06T00:00:00Z'))).toMatch(
      /the event has ended; results were published at 2030-01-05/,
    );
    expect(registrationClosedDetail(ev({ status: 'draft' }), noon)).toMatch(/not published yet/);
  });
});
