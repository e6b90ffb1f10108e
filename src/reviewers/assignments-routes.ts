import { Type } from 'typebox';
import { principalOf, type App } from '../core/http/app-types.js';
import type { Config } from '../core/config.js';
import { organizerPageQuery, setNextLink } from '../core/http/pagination.js';
import { problems } from '../core/http/schemas.js';
import { EventIdParams } from '../events/events-schemas.js';
import type { AssignmentsService } from './assignments-service.js';
import type { ReviewersService } from './reviewers-service.js';
import { EventProjectParams } from './reviewers-schemas.js';
import {
  AssignmentSettingsBody,
  AssignmentsList,
  AssignmentSummary,
  AutoAssignBody,
  EventAssignmentParams,
  EventConflictParams,
  SetAssignmentBody,
  SetAssignmentResponse,
} from './assignments-schemas.js';

const PageQuery = Type.Object({ ...organizerPageQuery }, { additionalProperties: false });

export interface AssignmentsRoutesDeps {
  assignments: AssignmentsService;
  reviewers: ReviewersService;
  config: Config;
}

/**
 * Assigned reviewing: organizers assign k reviewers per project automatically, list and set the
 * assignments by hand, record conflicts of interest; reviewers declare their own conflicts.
 */
export function assignmentsRoutes(ctx: AssignmentsRoutesDeps) {
  const { assignments, reviewers, config } = ctx;
  return async function plugin(app: App) {
    app.post(
      '/events/:id/assignments/auto',
      {
        config: {
          auth: true,
          idempotent: true,
          mcp: {
            name: 'auto_assign_reviewers',
            title: 'Assign reviewers automatically',
            role: 'organizer',
            destructive: true,
            idempotent: true,
            description:
              'Switch to assigned reviewing: every project gets per_project reviewers, evenly, never its own team or a conflict; newcomers are assigned as they come.',
          },
        },
        schema: {
          tags: ['organizer'],
          summary:
            'Switch to assigned reviewing and assign per_project reviewers to every project, evenly, conflicts respected (assignments without a review are redone; reviewed ones stay). Needs at least one reviewer who accepted (409 no_reviewers). Until results are published',
          params: EventIdParams,
          body: AutoAssignBody,
          response: { 200: AssignmentSummary, ...problems('forbidden', 'event_not_found', 'event_locked', 'results_already_published', 'no_reviewers') },
        },
      },
      async (request) =>
        assignments.autoAssign(principalOf(request), request.params.id, {
          perProject: request.body.per_project,
          sameDomain: request.body.same_email_domain_conflicts,
        }),
    );

    app.patch(
      '/events/:id/assignments',
      {
        config: {
          auth: true,
          mcp: {
            name: 'set_assignment_mode',
            title: 'Set the reviewing mode',
            role: 'organizer',
            description:
              'Switch to `every` (everyone reviews everything) or `assigned` (after auto_assign_reviewers), or change the same-domain conflict rule.',
          },
        },
        schema: {
          tags: ['organizer'],
          summary: 'Change the reviewing mode (every / assigned) or the same e-mail domain conflict rule; until results are published',
          params: EventIdParams,
          body: AssignmentSettingsBody,
          response: { 200: AssignmentSummary, ...problems('forbidden', 'event_not_found', 'event_locked', 'results_already_published') },
        },
      },
      async (request) =>
        assignments.updateSettings(principalOf(request), request.params.id, {
          mode: request.body.review_mode,
          sameDomain: request.body.same_email_domain_conflicts,
        }),
    );

    app.get(
      '/events/:id/assignments',
      {
        config: {
          auth: true,
          mcp: {
            name: 'list_assignments',
            title: 'List reviewer assignments',
            role: 'organizer',
            description: 'Per judged project of your event: its assigned reviewer_ids, who has reviewed it, and whether it was set by hand.',
          },
        },
        schema: {
          tags: ['organizer'],
          summary:
            'Per judged project (first submitted first), its assigned reviewers: one page (cursor pagination, Link rel="next"); empty lists in every mode',
          params: EventIdParams,
          querystring: PageQuery,
          response: { 200: AssignmentsList, ...problems('forbidden', 'event_not_found') },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const page = await assignments.list(principalOf(request), request.params.id, { limit: q.limit, cursor: q.cursor });
        setNextLink(reply, config.publicUrl, `/events/${encodeURIComponent(page.event.id)}/assignments`, q, page.nextCursor);
        return page.assignments;
      },
    );

    app.get(
      '/events/:id/assignments/summary',
      {
        config: {
          auth: true,
          mcp: {
            name: 'get_assignment_summary',
            title: 'Get the assignment summary',
            role: 'organizer',
            description: "Your event's reviewing mode, reviewers per project, domain rule and assignment counts (least and most loaded reviewer).",
          },
        },
        schema: {
          tags: ['organizer'],
          summary: 'The reviewing mode, k, the e-mail domain rule, and how the assignments stand (counts and the least and most loaded reviewer)',
          params: EventIdParams,
          response: { 200: AssignmentSummary, ...problems('forbidden', 'event_not_found') },
        },
      },
      async (request) => assignments.summaryFor(principalOf(request), request.params.id),
    );

    app.put(
      // Not the static siblings (auto, summary): a PUT there is a wrong method (405), not a project id.
      '/events/:id/assignments/:project_id(^(?!auto$|summary$).+)',
      {
        config: {
          auth: true,
          mcp: {
            name: 'set_assignment',
            title: "Set a project's reviewers",
            role: 'organizer',
            destructive: true,
            args: { project_id: 'project id (prj_…), from list_assignments' },
            description: "Set a project's reviewers by hand (reviewer user ids; [] hands it back to automatic assignment). Needs assigned reviewing.",
          },
        },
        schema: {
          tags: ['organizer'],
          summary: "Set a project's reviewers by hand (kept as set); [] hands it back to the automatic rule. Assigned reviewing only",
          params: EventAssignmentParams,
          body: SetAssignmentBody,
          response: {
            200: SetAssignmentResponse,
            ...problems(
              'forbidden',
              'event_not_found',
              'project_not_found',
              'conflict_of_interest',
              'not_assigned_mode',
              'event_locked',
              'results_already_published',
            ),
          },
        },
      },
      async (request) => assignments.setProject(principalOf(request), request.params.id, request.params.project_id, request.body.reviewer_ids),
    );

    app.post(
      '/events/:id/reviewers/:userId/conflicts/:project_id',
      {
        config: {
          auth: true,
          mcp: {
            name: 'add_reviewer_conflict',
            title: 'Record a conflict of interest',
            role: 'organizer',
            destructive: true,
            idempotent: true,
            args: { user_id: "the reviewer's user_id, from list_reviewers" },
            description: "Record a reviewer's conflict with a project: it leaves their assignments, their review of it is removed.",
          },
        },
        schema: {
          tags: ['organizer'],
          summary: "Record a reviewer's conflict of interest with a project: it leaves their assignments and their review of it is removed",
          params: EventConflictParams,
          response: {
            204: Type.Null({ description: 'Recorded' }),
            ...problems('forbidden', 'event_not_found', 'project_not_found', 'not_found', 'event_locked', 'results_already_published'),
          },
        },
      },
      async (request, reply) => {
        await assignments.organizerAddConflict(principalOf(request), request.params.id, request.params.userId, request.params.project_id);
        return reply.status(204).send(null);
      },
    );

    app.delete(
      '/events/:id/reviewers/:userId/conflicts/:project_id',
      {
        config: {
          auth: true,
          mcp: {
            name: 'remove_reviewer_conflict',
            title: 'Remove a conflict of interest',
            role: 'organizer',
            args: { user_id: "the reviewer's user_id, from list_reviewers" },
            description: 'Remove a recorded conflict (own-team and e-mail domain conflicts are rules and stay).',
          },
        },
        schema: {
          tags: ['organizer'],
          summary: 'Remove a recorded conflict of interest (own-team and e-mail domain conflicts are not records and stay)',
          params: EventConflictParams,
          response: {
            204: Type.Null({ description: 'Removed' }),
            ...problems('forbidden', 'event_not_found', 'not_found', 'event_locked', 'results_already_published'),
          },
        },
      },
      async (request, reply) => {
        await assignments.organizerRemoveConflict(principalOf(request), request.params.id, request.params.userId, request.params.project_id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/events/:id/projects/:pid/conflict',
      {
        config: {
          auth: true,
          reviewKeyAllowed: true,
          mcp: {
            name: 'declare_conflict',
            title: 'Declare a conflict of interest',
            role: 'reviewer',
            destructive: true,
            idempotent: true,
            args: { project_id: 'project id (prj_…), from get_review_queue' },
            description:
              'Declare your conflict of interest with a project: it leaves your queue (your review of it, if any, is removed) and goes to another reviewer.',
          },
        },
        schema: {
          tags: ['reviewer'],
          summary: 'Declare a conflict of interest with a project: it leaves your queue (your review of it, if any, is removed) and goes to another reviewer',
          params: EventProjectParams,
          response: {
            204: Type.Null({ description: 'Declared' }),
            ...problems('forbidden', 'event_not_found', 'project_not_found', 'event_locked', 'results_already_published'),
          },
        },
      },
      async (request, reply) => {
        await reviewers.declareConflict(principalOf(request), request.params.id, request.params.pid);
        return reply.status(204).send(null);
      },
    );
  };
}
