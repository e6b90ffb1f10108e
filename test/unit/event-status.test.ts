import { describe, expect, it } from 'vitest';
import type { StoredEventStatus } from '../../src/core/db/schema.js';
import {
  effectiveStatus,
  normaliseStatusFilter,
  registrationAccepted,
  submissionAccepted,
  transitionAllowed,
  type EventStatus,
} from '../../src/events/status.js';

const REG = '2030-01-02T00:00:00.000Z';
const SUB = '2030-01-03T00:00:00.000Z';
const regMs = Date.parse(REG);
const subMs = Date.parse(SUB);
const at = (ms: number) => new Date(ms);

function ev(status: StoredEventStatus, extra: Partial<{ registration_deadline: string | Date; submission_deadline: string | Date }> = {}) {
  return { status, registration_deadline: REG, submission_deadline: SUB, ...extra };
}

describe('effectiveStatus', () => {
  it('is open before the registration deadline, up to 1 ms before it', () => {
    expect(effectiveStatus(ev('open'), at(regMs - 86_400_000))).toBe('open');
    expect(effectiveStatus(ev('open'), at(regMs - 1))).toBe('open');
  });

  it('becomes active exactly at the registration deadline and stays active until 1 ms before submission', () => {
    expect(effectiveStatus(ev('open'), at(regMs))).toBe('active');
    expect(effectiveStatus(ev('open'), at(regMs + 1))).toBe('active');
    expect(effectiveStatus(ev('open'), at(subMs - 1))).toBe('active');
  });

  it('becomes judging exactly at the submission deadline and after it', () => {
    expect(effectiveStatus(ev('open'), at(subMs))).toBe('judging');
    expect(effectiveStatus(ev('open'), at(subMs + 1))).toBe('judging');
    expect(effectiveStatus(ev('active'), at(subMs))).toBe('judging');
    expect(effectiveStatus(ev('active'), at(subMs - 1))).toBe('active');
  });

  it('accepts Date deadlines as well as strings', () => {
    const e = ev('open', { registration_deadline: new Date(regMs), submission_deadline: new Date(subMs) });
    expect(effectiveStatus(e, at(regMs - 1))).toBe('open');
    expect(effectiveStatus(e, at(regMs))).toBe('active');
    expect(effectiveStatus(e, at(subMs))).toBe('judging');
  });

  it.each(['draft', 'cancelled', 'ended'] as const)('keeps %s whatever the clock says', (s) => {
    for (const t of [regMs - 1, regMs, subMs, subMs + 1e10]) expect(effectiveStatus(ev(s), at(t))).toBe(s);
  });

  it('keeps a stored status the organizer moved beyond the clock', () => {
    expect(effectiveStatus(ev('active'), at(regMs - 1000))).toBe('active');
    expect(effectiveStatus(ev('judging'), at(regMs - 1000))).toBe('judging');
    expect(effectiveStatus(ev('judging'), at(regMs + 1))).toBe('judging');
  });

  it('handles equal deadlines: straight from open to judging', () => {
    const e = ev('open', { submission_deadline: REG });
    expect(effectiveStatus(e, at(regMs - 1))).toBe('open');
    expect(effectiveStatus(e, at(regMs))).toBe('judging');
  });
});

describe('registrationAccepted', () => {
  const open = (status: StoredEventStatus = 'open', registration_open = true) => ({ ...ev(status), registration_open });

  it('accepts while open, up to 1 ms before the deadline', () => {
    expect(registrationAccepted(open(), at(regMs - 1))).toBe(true);
  });
  it('refuses exactly at and after the deadline', () => {
    expect(registrationAccepted(open(), at(regMs))).toBe(false);
    expect(registrationAccepted(open(), at(regMs + 1))).toBe(false);
  });
  it('refuses when the organizer closed the form', () => {
    expect(registrationAccepted(open('open', false), at(regMs - 1000))).toBe(false);
  });
  it.each(['draft', 'active', 'judging', 'ended', 'cancelled'] as const)('refuses when the event is %s', (s) => {
    expect(registrationAccepted(open(s), at(regMs - 1000))).toBe(false);
  });
});

describe('submissionAccepted', () => {
  it('accepts while open or active, up to 1 ms before the submission deadline', () => {
    expect(submissionAccepted(ev('open'), at(regMs - 1000))).toBe(true);
    expect(submissionAccepted(ev('open'), at(regMs))).toBe(true);
    expect(submissionAccepted(ev('active'), at(regMs - 1000))).toBe(true);
    expect(submissionAccepted(ev('open'), at(subMs - 1))).toBe(true);
  });
  it('refuses exactly at and after the submission deadline', () => {
    expect(submissionAccepted(ev('open'), at(subMs))).toBe(false);
    expect(submissionAccepted(ev('active'), at(subMs + 1))).toBe(false);
  });
  it.each(['draft', 'judging', 'ended', 'cancelled'] as const)('refuses when the event is %s', (s) => {
    expect(submissionAccepted(ev(s), at(regMs - 1000))).toBe(false);
  });
});

describe('transitionAllowed', () => {
  const ok = (from: EventStatus, to: EventStatus) => transitionAllowed(from, to).ok;

  it('allows every forward move along draft → open → active → judging', () => {
    const chain: EventStatus[] = ['draft', 'open', 'active', 'judging'];
    for (let i = 0; i < chain.length; i++) {
      for (let j = i; j < chain.length; j++) expect(ok(chain[i]!, chain[j]!), `${chain[i]} -> ${chain[j]}`).toBe(true);
    }
  });

  it('refuses every backward move, with a reason', () => {
    const chain: EventStatus[] = ['draft', 'open', 'active', 'judging'];
    for (let i = 1; i < chain.length; i++) {
      for (let j = 0; j < i; j++) {
        expect(transitionAllowed(chain[i]!, chain[j]!), `${chain[i]} -> ${chain[j]}`).toEqual({ ok: false, reason: expect.stringMatching(/\w/) });
      }
    }
  });

  it('allows cancelling from any state before ended', () => {
    for (const from of ['draft', 'open', 'active', 'judging'] as const) expect(ok(from, 'cancelled')).toBe(true);
  });

  it('never leaves ended or cancelled', () => {
    const all = ['draft', 'open', 'active', 'judging', 'cancelled', 'ended'] as const;
    for (const to of all.filter((s) => s !== 'ended')) expect(ok('ended', to), `ended -> ${to}`).toBe(false);
    for (const to of all.filter((s) => s !== 'cancelled')) expect(ok('cancelled', to), `cancelled -> ${to}`).toBe(false);
  });

  it('refuses ending by a status change (only publishing results ends an event)', () => {
    for (const from of ['draft', 'open', 'active', 'judging'] as const) {
      expect(transitionAllowed(from, 'ended')).toEqual({ ok: false, reason: expect.stringMatching(/publish/) });
    }
  });
});

describe('normaliseStatusFilter', () => {
  it('maps recruiting to open, in any case and with spaces', () => {
    expect(normaliseStatusFilter('recruiting')).toBe('open');
    expect(normaliseStatusFilter(' Recruiting ')).toBe('open');
  });
  it('accepts every real status', () => {
    for (const s of ['draft', 'open', 'active', 'judging', 'ended', 'cancelled'] as const) {
      expect(normaliseStatusFilter(s)).toBe(s);
      expect(normaliseStatusFilter(s.toUpperCase())).toBe(s);
    }
  });
  it('refuses anything else', () => {
    for (const s of ['', 'opened', 'recruit', 'pending', 'open,active', 'constructor', 'toString']) expect(normaliseStatusFilter(s)).toBeNull();
  });
});
