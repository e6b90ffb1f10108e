import type { AnnouncementSegment } from '../core/db/schema.js';

export type { AnnouncementSegment } from '../core/db/schema.js';

/**
 * Who an announcement reaches (resolved in announcements-repo.segmentRecipients when it is published):
 * - `registered`: every member of every team registered for the event, in any status but withdrawn;
 * - `approved`: the members of approved teams;
 * - `no_final_submission`: the members of approved teams without a final submission;
 * - `reviewers`: the event's reviewers;
 * - `winners`: the members of the teams placed in the published result (overall top 3, each track's
 *   winner); only once the result is published.
 */
export const ANNOUNCEMENT_SEGMENTS = [
  'registered',
  'approved',
  'no_final_submission',
  'reviewers',
  'winners',
] as const satisfies readonly AnnouncementSegment[];

/** The overall places that count as winners (track winners: track rank 1). */
export const WINNING_PLACES = 3;

export const ANNOUNCEMENT_LIMITS = { title: 120, body: 10_000 } as const;

/** Whether a mail of this segment names the submission deadline (people who still have something to hand in). */
export function segmentHasDeadline(segment: AnnouncementSegment): boolean {
  return segment === 'registered' || segment === 'approved' || segment === 'no_final_submission';
}
