import { effectiveStatus, type StatusInput } from './status.js';

/**
 * Why a registration or submission window is closed, worded from what actually happened: the
 * organizer moved the event on early (with the date when it was recorded), the deadline passed,
 * the form was closed, the event was cancelled or has ended. Pure, so every case is unit-tested.
 */
export interface ClosedWindowInput extends StatusInput {
  registration_open: boolean;
  result_announced_at: string | null;
  /** When an organizer last moved the stored status; null if unknown. */
  status_changed_at: string | null;
}

const ms = (t: string | Date): number => (typeof t === 'string' ? Date.parse(t) : t.getTime());
const text = (t: string | Date): string => (typeof t === 'string' ? t : t.toISOString());

/**
 * Whether the organizer's move to the stored status came before `deadline`. With the date recorded
 * this is exact; without it, only a deadline still in the future proves the move was early.
 */
function movedBefore(event: ClosedWindowInput, deadline: string | Date, now: Date): boolean {
  if (event.status_changed_at) return ms(event.status_changed_at) < ms(deadline);
  return now.getTime() < ms(deadline);
}

const onDate = (event: ClosedWindowInput) => (event.status_changed_at ? ` on ${event.status_changed_at}` : '');

/** The detail of a 409 registration_closed, for an event whose registration is not accepted at `now`. */
export function registrationClosedDetail(event: ClosedWindowInput, now: Date): string {
  const status = effectiveStatus(event, now);
  const deadline = text(event.registration_deadline);
  let reason: string;
  if (status === 'draft') reason = 'the event is not published yet';
  else if (status === 'cancelled') reason = `the organizer cancelled the event${onDate(event)}`;
  else if (status === 'ended') reason = `the event has ended${event.result_announced_at ? `; results were published at ${event.result_announced_at}` : ''}`;
  else if ((event.status === 'active' || event.status === 'judging') && movedBefore(event, event.registration_deadline, now)) {
    reason = `the organizer closed registration early: the event was moved to ${event.status}${onDate(event)}, before the registration deadline ${deadline}`;
  } else if (now.getTime() >= ms(event.registration_deadline)) reason = `the registration deadline passed at ${deadline}`;
  else if (!event.registration_open) reason = 'the organizer has closed the registration form (registration_config.open is false)';
  else reason = `the event is ${status}`;
  const suffix = status !== 'open' && status !== 'draft' && status !== 'cancelled' && status !== 'ended' ? `; the event is now ${status}` : '';
  return `Registration is closed: ${reason}${suffix}.`;
}

/** The detail of a 409 submission_closed, for an event whose submissions are not accepted at `now`. */
export function submissionClosedDetail(event: ClosedWindowInput, now: Date): string {
  const status = effectiveStatus(event, now);
  const deadline = text(event.submission_deadline);
  const passed = now.getTime() >= ms(event.submission_deadline);
  if (status === 'draft') return 'Submissions are not accepted: the event is not published yet.';
  if (status === 'cancelled') return `Submissions are closed: the organizer cancelled the event${onDate(event)}.`;
  if (status === 'ended') {
    const published = event.result_announced_at ? `; results were published at ${event.result_announced_at}` : '';
    // Publication needs judging, so results published before the deadline mean the organizer moved
    // the event to judging early, and that move was its last status change.
    const early = event.result_announced_at !== null && ms(event.result_announced_at) < ms(event.submission_deadline);
    if (early)
      return `Submissions are closed: the organizer closed submissions early: the event was moved to judging${onDate(event)}, before the submission deadline ${deadline}${published}.`;
    return `Submissions are closed: the submission deadline passed at ${deadline}${published}.`;
  }
  if (status === 'judging') {
    if (event.status === 'judging' && movedBefore(event, event.submission_deadline, now)) {
      return `Submissions are closed: the organizer closed submissions early: the event was moved to judging${onDate(event)}, before the submission deadline ${deadline}.`;
    }
    return `Submissions are closed: the submission deadline passed at ${deadline}; the event is judging.`;
  }
  // open or active before the deadline is accepted; this is only reached if a caller asks anyway.
  return passed ? `Submissions are closed: the submission deadline passed at ${deadline}.` : `Submissions are not accepted while the event is ${status}.`;
}
