import { Type, type Static } from 'typebox';
import { principalOf, type App } from '../core/http/app-types.js';
import type { ReviewersService } from './reviewers-service.js';
import type { AccountsService } from '../accounts/accounts-service.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { organizerPageQuery, setNextLink } from '../core/http/pagination.js';
import { problems } from '../core/http/schemas.js';
import { renderMarkdownCached } from '../core/markdown.js';
import { sessionCookie } from '../core/http/session-cookie.js';
import { createLoginOriginCheck } from '../core/http/auth-hook.js';
import { EventIdParams } from '../events/events-schemas.js';
import { COMMENT_MAX, SCORE_MAX, SCORE_MIN } from './review-input.js';
import { invitationForApi, reviewForApi } from './reviewers-model.js';
import {
  AcceptBody,
  AcceptResponse,
  AssignmentsResponse,
  EventInvitationParams,
  EventProjectParams,
  EventReviewerParams,
  InviteBody,
  InviteResponse,
  PublicInvitationSchema,
  RemindAllResponse,
  ReminderSchema,
  ReviewBody,
  ReviewerFlagSchema,
  ReviewersResponse,
  ReviewSchema,
  TokenParams,
} from './reviewers-schemas.js';

const PageQuery = Type.Object({ ...organizerPageQuery }, { additionalProperties: false });

/** The reviewers routes take these from the wiring (accounts: accepting an invitation signs the reviewer in). */
export interface ReviewersRoutesDeps {
  reviewers: ReviewersService;
  accounts: AccountsService;
  clock: Clock;
  config: Config;
  /** The flags of the projects in a reviewer's queue (kept by the AI reviews' screening and build-window checks). */
  reviews: { reviewerFlags(eventId: string, projectIds: readonly string[]): Promise<Map<string, Array<Static<typeof ReviewerFlagSchema>>>> };
}

/**
 * Human reviewers: organizers invite by e-mail and manage reviewers; invitees accept with the
 * token from the link; reviewers list their assignments and put one review per project.
 */
export function reviewersRoutes(ctx: ReviewersRoutesDeps) {
  const { reviewers, clock, config } = ctx;
  const loginOriginCheck = createLoginOriginCheck(config.publicUrl);
  return async function plugin(app: App) {
    // ---- organizers ----
    app.post(
      '/events/:id/reviewers',
      {
        config: {
          auth: true,
          idempotent: true,
          mcp: {
            name: 'invite_reviewer',
            title: 'Invite a reviewer',
            role: 'organizer',
            description:
              'Invite a human reviewer by e-mail; they accept with the link (accept_review_invitation takes its token). Re-inviting replaces an unused invitation.',
          },
        },
        schema: {
          tags: ['organizer'],
          summary: 'Invite a human reviewer by e-mail (re-inviting an address replaces its unused invitation)',
          params: EventIdParams,
          body: InviteBody,
          response: { 201: InviteResponse, ...problems('forbidden', 'event_not_found', 'event_locked', 'service_unavailable') },
        },
      },
      async (request, reply) => {
        const { invitation, delivery } = await reviewers.invite(principalOf(request), request.params.id, request.body, request.log);
        reply.status(201);
        return { ...invitationForApi(invitation, clock.now()), delivery };
      },
    );

    app.get(
      '/events/:id/reviewers',
      {
        config: {
          auth: true,
          mcp: {
            name: 'list_reviewers',
            title: 'List reviewers',
            role: 'organizer',
            description: "Your event's human reviewers (reviews given, open reviews, last reminder), then its invitations not yet accepted.",
          },
        },
        schema: {
          tags: ['organizer'],
          summary: 'The event\'s human reviewers, then its invitations not yet accepted: one page of both (cursor pagination, Link rel="next")',
          params: EventIdParams,
          querystring: PageQuery,
          response: { 200: ReviewersResponse, ...problems('forbidden', 'event_not_found') },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const {
          event,
          reviewers: list,
          invitations,
          nextCursor,
        } = await reviewers.listReviewers(principalOf(request), request.params.id, {
          limit: q.limit,
          ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
        });
        setNextLink(reply, config.publicUrl, `/events/${encodeURIComponent(event.id)}/reviewers`, q, nextCursor);
        const now = clock.now();
        return { event_id: event.id, reviewers: list, invitations: invitations.map((i) => invitationForApi(i, now)) };
      },
    );

    app.delete(
      '/events/:id/reviewers/:userId',
      {
        config: {
          auth: true,
          mcp: {
            name: 'remove_reviewer',
            title: 'Remove a reviewer',
            role: 'organizer',
            destructive: true,
            args: { user_id: "the reviewer's user_id, from list_reviewers" },
            description: 'Remove a reviewer and their reviews (refused once results are published).',
          },
        },
        schema: {
          tags: ['organizer'],
          summary: 'Remove a reviewer and the reviews they gave (refused once results are published)',
          params: EventReviewerParams,
          response: { 204: Type.Null({ description: 'Removed' }), ...problems('forbidden', 'event_not_found', 'not_found', 'results_already_published') },
        },
      },
      async (request, reply) => {
        await reviewers.removeReviewer(principalOf(request), request.params.id, request.params.userId);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/events/:id/reviewers/:userId/remind',
      {
        config: {
          auth: true,
          idempotent: true,
          mcp: {
            name: 'remind_reviewer',
            title: 'Remind a reviewer',
            role: 'organizer',
            args: { user_id: "the reviewer's user_id, from list_reviewers" },
            description: 'E-mail a reviewer how many projects they still have to review; once per 24 h (reminder_too_soon names next_allowed_at).',
          },
        },
        schema: {
          tags: ['organizer'],
          summary:
            'E-mail a reviewer how many projects they still have to review, with a link to their queue; while judging, at most once in 24 hours per reviewer (429 reminder_too_soon)',
          params: EventReviewerParams,
          response: {
            201: ReminderSchema,
            ...problems(
              'forbidden',
              'event_not_found',
              'not_found',
              'not_judging',
              'event_locked',
              'results_already_published',
              'no_open_reviews',
              'reminder_too_soon',
            ),
          },
        },
      },
      async (request, reply) => {
        const sent = await reviewers.remind(principalOf(request), request.params.id, request.params.userId);
        reply.status(201);
        return sent;
      },
    );

    app.post(
      '/events/:id/reviewer-reminders',
      {
        config: {
          auth: true,
          idempotent: true,
          mcp: {
            name: 'remind_reviewers',
            title: 'Remind all reviewers',
            role: 'organizer',
            description: 'Remind every reviewer with open reviews not reminded in the last 24 h; the answer says who was reminded or skipped.',
          },
        },
        schema: {
          tags: ['organizer'],
          summary: 'Remind every reviewer who has open reviews and was not reminded in the last 24 hours (while judging)',
          params: EventIdParams,
          response: { 200: RemindAllResponse, ...problems('forbidden', 'event_not_found', 'not_judging', 'event_locked', 'results_already_published') },
        },
      },
      async (request) => reviewers.remindAll(principalOf(request), request.params.id),
    );

    app.delete(
      '/events/:id/reviewer-invitations/:invitationId',
      {
        config: {
          auth: true,
          mcp: {
            name: 'revoke_reviewer_invitation',
            title: 'Revoke a reviewer invitation',
            role: 'organizer',
            destructive: true,
            args: { invitation_id: 'invitation id, from list_reviewers' },
            description: 'Withdraw a reviewer invitation not yet accepted; its link stops working.',
          },
        },
        schema: {
          tags: ['organizer'],
          summary: 'Withdraw an invitation that has not been accepted; its link stops working',
          params: EventInvitationParams,
          response: { 204: Type.Null({ description: 'Withdrawn' }), ...problems('forbidden', 'event_not_found', 'invitation_not_found') },
        },
      },
      async (request, reply) => {
        await reviewers.revokeInvitation(principalOf(request), request.params.id, request.params.invitationId);
        return reply.status(204).send(null);
      },
    );

    // ---- invitees (the token is the credential) ----
    app.get(
      '/invitations/:token',
      {
        config: { reviewKeyAllowed: true },
        schema: {
          tags: ['reviewer'],
          summary: 'What an invitation is for (404 unknown, 410 used, expired or its event ended/cancelled)',
          params: TokenParams,
          response: { 200: PublicInvitationSchema, ...problems('invitation_not_found', 'invitation_used', 'invitation_expired', 'invitation_closed') },
        },
      },
      async (request, reply) => {
        // Says who is invited to what: not for shared caches.
        reply.header('cache-control', 'no-store');
        return reviewers.describeInvitation(request.params.token);
      },
    );

    app.post(
      '/invitations/:token/accept',
      {
        config: {
          reviewKeyAllowed: true,
          mcp: {
            name: 'accept_review_invitation',
            title: 'Accept a review invitation',
            role: 'reviewer',
            omit: ['start_session'],
            args: { token: 'the token at the end of the invitation link' },
            description:
              "Accept a reviewer invitation: the invited address's account (made if none) becomes a reviewer of the event; a review-scoped key in the answer is shown once. Then get_review_queue.",
          },
        },
        // A browser without a session may sign in here (start_session): refuse other sites (login CSRF).
        // With a session the auth hook has already checked origin and CSRF token.
        onRequest: (request, reply, done) => (request.principal?.via === 'session' ? done() : loginOriginCheck(request, reply, done)),
        schema: {
          tags: ['reviewer'],
          summary:
            "Accept: sign in the invited address's account (its API key, its web session, or its password; without an account the password creates it), become a reviewer, get a review-scoped API key (shown once) unless you already hold one",
          params: TokenParams,
          body: AcceptBody,
          response: {
            200: AcceptResponse,
            ...problems(
              'unauthorized',
              'forbidden',
              'account_disabled',
              'csrf_failed',
              'invitation_not_found',
              'invitation_used',
              'invitation_expired',
              'invitation_closed',
              'rate_limited',
            ),
          },
        },
      },
      async (request, reply) => {
        // The answer carries an API key: no cache may keep it. Set before the work so errors carry it too.
        reply.header('cache-control', 'no-store');
        const body = request.body;
        const session = request.principal?.via === 'session' ? request.principal : null;
        const result = await reviewers.accept(request.params.token, {
          // An API key of the invited address signs in like its web session (no password).
          session: request.principal ?? null,
          ip: request.ip,
          ...(body.password !== undefined ? { password: body.password } : {}),
          ...(body.email !== undefined ? { email: body.email } : {}),
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
          ...(body.time_zone !== undefined ? { timeZone: body.time_zone } : {}),
          ...(body.replace_key !== undefined ? { replaceKey: body.replace_key } : {}),
        });
        if (session) return { ...result, csrf_token: session.csrfToken };
        if (!body.start_session) return result;
        // The web page signs the invitee in with the same request (the password was just checked).
        const started = await ctx.accounts.startSession(result.user.id, { ip: request.ip, userAgent: request.headers['user-agent'] });
        reply.header('set-cookie', sessionCookie(config.publicUrl, started.token, config.accounts.sessionTtlDays * 86_400));
        return { ...result, csrf_token: started.csrfToken };
      },
    );

    // ---- reviewers (review-scoped keys allowed) ----
    app.get(
      '/events/:id/review-assignments',
      {
        config: {
          auth: true,
          reviewKeyAllowed: true,
          mcp: {
            name: 'get_review_queue',
            title: 'Get my review queue',
            role: 'reviewer',
            description:
              'The projects you are to review, each with your review so far, the dimensions and scale; reviewing_open: whether save_review is accepted now.',
          },
        },
        schema: {
          tags: ['reviewer'],
          summary:
            'The projects to review, each with the caller\'s own review and its flags (screening, build window), and the event\'s dimensions; `projects` is one page (cursor pagination, Link rel="next")',
          params: EventIdParams,
          querystring: PageQuery,
          response: { 200: AssignmentsResponse, ...problems('forbidden', 'event_not_found', 'not_judging', 'event_locked', 'results_already_published') },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const a = await reviewers.assignments(principalOf(request), request.params.id, {
          limit: q.limit,
          ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
        });
        setNextLink(reply, config.publicUrl, `/events/${encodeURIComponent(a.event.id)}/review-assignments`, q, a.nextCursor);
        const flags = await ctx.reviews.reviewerFlags(
          a.event.id,
          a.projects.map((p) => p.id),
        );
        return {
          event: { id: a.event.id, name: a.event.name, status: a.status },
          reviewing_open: a.reviewingOpen,
          scale: { min: SCORE_MIN, max: SCORE_MAX },
          dimensions: a.event.dimensions,
          hidden_for_conflict_of_interest: a.hiddenForConflict,
          review_mode: a.reviewMode,
          projects: a.projects.map((p) => ({
            project_id: p.id,
            project_name: p.project_name,
            name: p.project_name,
            team_name: p.team_name,
            track_id: p.track_id,
            description: p.description,
            description_html: renderMarkdownCached(p.description ?? ''),
            github_url: p.github_url,
            project_website: p.project_website,
            demo_video_url: p.demo_video_url,
            demo_url: p.demo_video_url,
            team_size: p.team_size,
            submitted_at: p.first_submitted_at,
            updated_at: p.updated_at,
            my_review: p.review_id
              ? {
                  id: p.review_id,
                  event_id: p.event_id,
                  project_id: p.id,
                  reviewer_id: principalOf(request).userId,
                  scores: p.review_scores ? (JSON.parse(p.review_scores) as Record<string, number>) : {},
                  comment: p.review_summary,
                  created_at: p.review_created_at!,
                  updated_at: p.review_updated_at!,
                }
              : null,
            flags: flags.get(p.id) ?? [],
          })),
        };
      },
    );

    app.put(
      '/events/:id/projects/:pid/review',
      {
        config: {
          auth: true,
          reviewKeyAllowed: true,
          mcp: {
            name: 'save_review',
            title: 'Save my review',
            role: 'reviewer',
            destructive: true,
            args: { project_id: 'project id (prj_…), from get_review_queue' },
            description:
              'Create or replace your review of a project while the event is judging: a score for every dimension of the queue, and an optional comment.',
          },
        },
        schema: {
          tags: ['reviewer'],
          summary: `Create (201) or replace (200) your review: every dimension scored ${SCORE_MIN}..${SCORE_MAX}, comment up to ${COMMENT_MAX} characters; while the event is judging`,
          params: EventProjectParams,
          body: ReviewBody,
          response: {
            200: ReviewSchema,
            201: ReviewSchema,
            ...problems(
              'forbidden',
              'event_not_found',
              'project_not_found',
              'conflict_of_interest',
              'project_not_assigned',
              'not_judging',
              'event_locked',
              'results_already_published',
            ),
          },
        },
      },
      async (request, reply) => {
        const { review, created } = await reviewers.putReview(principalOf(request), request.params.id, request.params.pid, request.body);
        reply.status(created ? 201 : 200);
        return reviewForApi(review);
      },
    );

    app.get(
      '/events/:id/projects/:pid/review',
      {
        config: {
          auth: true,
          reviewKeyAllowed: true,
          mcp: {
            name: 'get_my_review',
            title: 'Get my review',
            role: 'reviewer',
            args: { project_id: 'project id (prj_…), from get_review_queue' },
            description: 'Your own review of a project (not_found before you saved one).',
          },
        },
        schema: {
          tags: ['reviewer'],
          summary: 'Your own review of a project',
          params: EventProjectParams,
          response: {
            200: ReviewSchema,
            ...problems('forbidden', 'event_not_found', 'project_not_found', 'conflict_of_interest', 'project_not_assigned', 'not_found'),
          },
        },
      },
      async (request) => reviewForApi(await reviewers.getReview(principalOf(request), request.params.id, request.params.pid)),
    );
  };
}
