import type { StoredEventStatus } from '../core/db/schema.js';

/**
 * Event status as a pure function of stored state and the clock (contract "Event status").
 * The stored status is the furthest point an organizer moved the event to; deadlines move it further
 * on their own. No timer needs to fire, so no reader ever sees a stale status.
 */
export type EventStatus = StoredEventStatus;

export interface StatusInput {
  status: StoredEventStatus;
  registration_deadline: string | Date;
  submission_deadline: string | Date;
}

const ORDER: Record<'draft' | 'open' | 'active' | 'judging' | 'ended', number> = {
  draft: 0,
  open: 1,
  active: 2,
  judging: 3,
  ended: 4,
};

const ms = (t: string | Date): number => (typeof t === 'string' ? Date.parse(t) : t.getTime());

export function effectiveStatus(event: StatusInput, now: Date): EventStatus {
  const stored = event.status;
  // Drafts wait for their organizer; cancelled and ended are final.
  if (stored === 'draft' || stored === 'cancelled' || stored === 'ended') return stored;
  const t = now.getTime();
  let byClock: 'open' | 'active' | 'judging' = 'open';
  if (t >= ms(event.submission_deadline)) byClock = 'judging';
  else if (t >= ms(event.registration_deadline)) byClock = 'active';
  return ORDER[byClock] > ORDER[stored] ? byClock : stored;
}

export interface RegistrationWindowInput extends StatusInput {
  registration_open: boolean;
}

/** Registration is accepted while the event is open, before its deadline, and the form is open. */
export function registrationAccepted(event: RegistrationWindowInput, now: Date): boolean {
  return effectiveStatus(event, now) === 'open' && now.getTime() < ms(event.registration_deadline) && event.registration_open;
}

/** Submission is accepted while the event is open or active and before the submission deadline. */
export function submissionAccepted(event: StatusInput, now: Date): boolean {
  const s = effectiveStatus(event, now);
  return (s === 'open' || s === 'active') && now.getTime() < ms(event.submission_deadline);
}

/**
 * Whether an organizer may move an event from its current (effective) status to `to`.
 * Forward only along draft → open → active → judging; `cancelled` from anything before `ended`;
 * `ended` only by publishing results, never by a plain status change.
 */
export function transitionAllowed(from: EventStatus, to: EventStatus): { ok: true } | { ok: false; reason: string } {
  if (from === to) return { ok: true };
  if (from === 'ended' || from === 'cancelled') return { ok: false, reason: `the event is ${from}; its status is final` };
  if (to === 'cancelled') return { ok: true };
  if (to === 'ended') return { ok: false, reason: 'an event ends when its results are published (POST /events/:id/results/publish)' };
  if (to === 'draft' && from !== 'draft') return { ok: false, reason: 'a published event cannot go back to draft' };
  if (ORDER[to] < ORDER[from]) return { ok: false, reason: `cannot move backwards from ${from} to ${to}` };
  return { ok: true };
}

export const EVENT_STATUSES = ['draft', 'open', 'active', 'judging', 'ended', 'cancelled'] as const;

/** A status as clients may send it: `recruiting` (the seed's word) is accepted wherever a status is an input and means `open`. */
export type EventStatusInput = EventStatus | 'recruiting';
export const EVENT_STATUS_INPUTS = [...EVENT_STATUSES, 'recruiting'] as const;

export function statusFromInput(s: EventStatusInput): EventStatus {
  return s === 'recruiting' ? 'open' : s;
}

/** A status filter from a query string: case and spaces do not matter; `recruiting` means `open`. */
export function normaliseStatusFilter(raw: string): EventStatus | null {
  const s = raw.trim().toLowerCase();
  if (s === 'recruiting') return 'open';
  return EVENT_STATUSES.find((x) => x === s) ?? null;
}
