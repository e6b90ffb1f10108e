import type { Executor } from '../core/db/index.js';

/**
 * The one rule for which projects take part in judging: those of the event whose team's
 * registration is approved (a team rejected after submitting drops out). AI review queuing, human
 * reviewer assignments and the ranking all start from this query and add what they need.
 */
export function judgedProjects(db: Executor, eventId: string) {
  return db
    .selectFrom('projects')
    .innerJoin('registrations', 'registrations.id', 'projects.registration_id')
    .where('projects.event_id', '=', eventId)
    .where('registrations.status', '=', 'approved');
}
