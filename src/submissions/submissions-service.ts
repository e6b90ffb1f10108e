import type { Principal } from '../core/principal.js';
import type { Clock } from '../core/clock.js';
import type { Db } from '../core/db/index.js';
import type { ProjectWithAuthor } from '../registrations/project-schema.js';
import { memberName } from '../registrations/registrations-repo.js';
import { AppError, validationError } from '../core/errors.js';
import { decodeCursor, encodeCursor, takePage } from '../core/http/pagination.js';
import { newId } from '../core/ids.js';
import { iso } from '../core/time.js';
import type { EventsService } from '../events/events-service.js';
import { submissionClosedDetail } from '../events/closed-reasons.js';
import { submissionAccepted } from '../events/status.js';
import type { RegistrationsService } from '../registrations/registrations-service.js';
import { enqueueWebhookEvent, projectData } from '../webhooks/webhook-events.js';
import type { WebhookSubscribers } from '../webhooks/webhook-subscribers.js';
import type { ProjectRow } from '../core/db/schema.js';
import { validateSubmission, type SubmissionInput } from './submission-input.js';
import { projectsPage, saveProject, type ProjectWrite } from './submissions-repo.js';

export function createSubmissionsService(deps: {
  db: Db;
  dialect: 'sqlite' | 'postgres';
  clock: Clock;
  events: EventsService;
  registrations: RegistrationsService;
  /** Who subscribes to which webhook kinds: a write nobody can receive queues nothing. */
  subscribers: WebhookSubscribers;
}) {
  const { db, dialect, clock, events, registrations, subscribers } = deps;

  /**
   * Creates the team's one project or replaces it (last write wins). The unique constraint on
   * registration_id decides which of several concurrent first submits creates it: that one gets
   * `created`, the others fall through to the update.
   */
  async function submit(who: Principal, eventId: string, input: SubmissionInput): Promise<{ project: ProjectWithAuthor; created: boolean; teamName: string }> {
    const event = await events.getPublic(eventId, who);
    const now = clock.now();
    if (!submissionAccepted(event, now)) throw new AppError('submission_closed', submissionClosedDetail(event, now));
    const registration = await registrations.findForUser(event.id, who.userId);
    if (!registration)
      throw new AppError(
        'not_registered',
        `You have no registration for this event; register first (POST /api/v1/events/${event.id}/register), then submit once it is approved.`,
      );
    if (registration.status !== 'approved') {
      throw new AppError('registration_not_approved', `Your registration is ${registration.status}; only approved teams can submit.`, {
        extra: { registration_status: registration.status },
      });
    }
    if (event.min_team_size !== null && registration.member_count < event.min_team_size) {
      const missing = event.min_team_size - registration.member_count;
      throw new AppError(
        'team_too_small',
        `This event needs teams of at least ${event.min_team_size}; your team has ${registration.member_count}: invite ${missing} more member${missing === 1 ? '' : 's'} (POST /api/v1/events/${event.id}/team/invitations), then submit.`,
        { extra: { min_team_size: event.min_team_size, member_count: registration.member_count, members_needed: missing } },
      );
    }
    const { value, errors } = validateSubmission(input, { tracks: event.tracks, registrationTrack: registration.track_id });
    if (errors.length) throw validationError(errors);

    const { tagline, tags, ...answers } = value;
    const write: ProjectWrite = {
      ...answers,
      tagline: tagline ?? null,
      tags: tags ? JSON.stringify(tags) : null,
      id: newId('prj'),
      event_id: event.id,
      registration_id: registration.id,
      stamp: iso(now),
      user_id: who.userId,
    };
    const answer = ({ project, created }: { project: ProjectRow; created: boolean }) => ({
      // The author's name comes with the caller (cached with the key), not from a read of users.
      project: { ...project, updated_by_name: memberName(who.name, who.email) },
      created,
      teamName: registration.team_name,
    });
    // Either kind may be subscribed to; with no subscription that can receive either, the write runs alone.
    if (!subscribers.mayReceive('project.submitted', event.id) && !subscribers.mayReceive('project.updated', event.id)) {
      return answer(await saveProject(db, write, dialect));
    }
    // The write and its webhook deliveries commit together.
    return db.transaction().execute(async (tx) => {
      const saved = await saveProject(tx, write, dialect);
      const type = saved.created ? 'project.submitted' : 'project.updated';
      if (subscribers.mayReceive(type, event.id)) {
        await enqueueWebhookEvent(tx, {
          type,
          eventId: event.id,
          subjectUserId: registration.user_id,
          registrationId: registration.id,
          data: projectData(saved.project),
          at: write.stamp,
        });
      }
      return answer(saved);
    });
  }

  /**
   * One page of the event's projects, first submitted first: `limit + 1` rows read in
   * (first_submitted_at, id) order through the (event_id, first_submitted_at, id) index. That key
   * never changes once a project exists, so paging is stable while teams keep submitting.
   */
  async function listForEvent(who: Principal, eventId: string, q: { limit: number; cursor?: string }) {
    const event = await events.getOwned(eventId, who);
    const after = q.cursor ? decodeCursor(q.cursor, 'projects', event.id, ['time', 'id']) : undefined;
    const rows = await projectsPage(db, { eventId: event.id, limit: q.limit + 1, ...(after ? { after: [after[0]!, after[1]!] as [string, string] } : {}) });
    const page = takePage(rows, q.limit, (r) => [r.first_submitted_at, r.id]);
    return {
      rows: page.items.map((r) => ({ ...r, updated_by_name: r.author_email ? memberName(r.author_name, r.author_email) : null })),
      nextCursor: page.nextKey ? encodeCursor('projects', event.id, page.nextKey) : null,
    };
  }

  return { submit, listForEvent };
}

export type SubmissionsService = ReturnType<typeof createSubmissionsService>;
