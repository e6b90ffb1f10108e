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
import { validateSubmission, type SubmissionInput } from './submission-input.js';

export function createSubmissionsService(deps: { db: Db; clock: Clock; events: EventsService; registrations: RegistrationsService }) {
  const { db, clock, events, registrations } = deps;

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

    const stamp = iso(now);
    // The write and its webhook deliveries commit together.
    return db.transaction().execute(async (tx) => {
      const inserted = await tx
        .insertInto('projects')
        .values({
          id: newId('prj'),
          event_id: event.id,
          registration_id: registration.id,
          ...value,
          status: 'submitted',
          review_status: 'pending',
          first_submitted_at: stamp,
          created_at: stamp,
          updated_at: stamp,
          updated_by_user_id: who.userId,
        })
        .onConflict((oc) => oc.column('registration_id').doNothing())
        .returningAll()
        .executeTakeFirst();
      const project =
        inserted ??
        (await tx
          .updateTable('projects')
          .set({ ...value, updated_at: stamp, updated_by_user_id: who.userId })
          .where('registration_id', '=', registration.id)
          .returningAll()
          .executeTakeFirstOrThrow());
      await enqueueWebhookEvent(tx, {
        type: inserted ? 'project.submitted' : 'project.updated',
        eventId: event.id,
        subjectUserId: registration.user_id,
        registrationId: registration.id,
        data: projectData(project),
        at: stamp,
      });
      const author = await tx.selectFrom('users').select(['name', 'email']).where('id', '=', who.userId).executeTakeFirst();
      return {
        project: { ...project, updated_by_name: author ? memberName(author.name, author.email) : null },
        created: inserted !== undefined,
        teamName: registration.team_name,
      };
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
    let query = db
      .selectFrom('projects')
      .innerJoin('registrations', 'registrations.id', 'projects.registration_id')
      .leftJoin('users as author', 'author.id', 'projects.updated_by_user_id')
      .selectAll('projects')
      .select(['registrations.team_name', 'registrations.status as registration_status', 'author.name as author_name', 'author.email as author_email'])
      // Screening findings the organizers have not checked yet (project_flags_finding_uq's index).
      .select((eb) =>
        eb
          .selectFrom('project_flags')
          .select((f) => f.fn.countAll<number | string>().as('n'))
          .whereRef('project_flags.project_id', '=', 'projects.id')
          .where('project_flags.status', '=', 'open')
          .as('open_flags'),
      )
      .where('projects.event_id', '=', event.id);
    if (after) query = query.where((eb) => eb(eb.refTuple('projects.first_submitted_at', 'projects.id'), '>', eb.tuple(after[0]!, after[1]!)));
    const rows = await query
      .orderBy('projects.first_submitted_at', 'asc')
      .orderBy('projects.id', 'asc')
      .limit(q.limit + 1)
      .execute();
    const page = takePage(rows, q.limit, (r) => [r.first_submitted_at, r.id]);
    return {
      rows: page.items.map((r) => ({ ...r, updated_by_name: r.author_email ? memberName(r.author_name, r.author_email) : null })),
      nextCursor: page.nextKey ? encodeCursor('projects', event.id, page.nextKey) : null,
    };
  }

  return { submit, listForEvent };
}

export type SubmissionsService = ReturnType<typeof createSubmissionsService>;
