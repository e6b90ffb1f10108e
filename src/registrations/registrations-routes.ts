import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { principalOf, type App } from '../core/http/app-types.js';
import type { RegistrationsService } from './registrations-service.js';
import type { TeamResultSource } from './team-result-schema.js';
import type { Config } from '../core/config.js';
import { setNextLink } from '../core/http/pagination.js';
import { problems } from '../core/http/schemas.js';
import { effectiveWaitSeconds, LONG_POLL_MAX_SECONDS } from '../core/wait-policy.js';
import { EventIdParams } from '../events/events-schemas.js';
import {
  DecisionBody,
  RejectBody,
  ListRegistrationsQuery,
  MyRegistrationQuery,
  MyRegistrationSchema,
  OrganizerRegistrationSchema,
  RegisterBody,
  RegisterResponse,
  RegistrationParams,
  RegistrationSchema,
  myRegistrationForApi,
  registrationForApi,
} from './registrations-schemas.js';

/** The registrations routes take these from the wiring (the shutdown signal ends long-polls). */
export interface RegistrationsRoutesDeps {
  registrations: RegistrationsService;
  /** The team's own result after publication (the results domain, passed in by the wiring). */
  results: TeamResultSource;
  config: Config;
  shutdownSignal: AbortSignal;
}

export function registrationsRoutes(ctx: RegistrationsRoutesDeps) {
  const { registrations, config } = ctx;

  return async function plugin(app: App) {
    app.post(
      '/events/:id/register',
      {
        config: {
          auth: true,
          idempotent: true,
          mcp: {
            name: 'register_team',
            title: 'Register a team',
            role: 'participant',
            description: 'Register your team (one per account and event); pending until an organizer approves, unless auto-approved: then get_my_registration.',
          },
        },
        schema: {
          tags: ['registration'],
          summary: 'Register a team (pending until approved, unless the event auto-approves)',
          params: EventIdParams,
          body: RegisterBody,
          response: {
            200: RegisterResponse,
            201: RegisterResponse,
            ...problems('event_not_found', 'registration_closed', 'already_registered', 'registration_rejected_final', 'team_name_taken'),
          },
        },
      },
      async (request, reply) => {
        const { registration, event, reapplied } = await registrations.register(principalOf(request), request.params.id, request.body);
        // A re-application changes the existing registration (same id): 200, like a submit's update.
        reply.status(reapplied ? 200 : 201).header('Location', `${config.publicUrl}/api/v1/events/${event.id}/my-registration`);
        return {
          id: registration.id,
          event_id: event.id,
          status: registration.status,
          team_name: registration.team_name,
          track_id: registration.track_id,
          required_fields: event.fields.filter((f) => f.required).map((f) => ({ key: f.key, label: f.label })),
          attempt: registration.attempt,
          reapplied,
          created_at: registration.created_at,
        };
      },
    );

    app.get(
      '/events/:id/my-registration',
      {
        config: {
          auth: true,
          mcp: {
            name: 'get_my_registration',
            title: 'Get my registration',
            role: 'participant',
            description: `Your registration (pending, approved, or rejected with a reason) and project. \`wait\` (at most ${LONG_POLL_MAX_SECONDS} s) holds a pending one until decided; still pending: call again.`,
          },
        },
        schema: {
          tags: ['registration'],
          summary: "The caller's registration and project; `?wait=N` holds a pending one up to N seconds for a decision",
          params: EventIdParams,
          querystring: MyRegistrationQuery,
          response: { 200: MyRegistrationSchema, ...problems('event_not_found', 'not_registered') },
        },
      },
      async (request) => {
        const wait = effectiveWaitSeconds(request.query.wait, config.maxWaitSeconds);
        const abort = new AbortController();
        const onClose = () => abort.abort();
        request.raw.once('close', onClose);
        try {
          const signal = AbortSignal.any([abort.signal, ctx.shutdownSignal]);
          const { registration, project, reapplyUntil, event } = await registrations.mineWaiting(principalOf(request), request.params.id, wait, signal);
          return { ...myRegistrationForApi(registration, project, reapplyUntil, config.publicUrl), result: await ctx.results.teamResult(registration, event) };
        } finally {
          request.raw.off('close', onClose);
        }
      },
    );

    app.get(
      '/events/:id/registrations',
      {
        config: {
          auth: true,
          mcp: {
            name: 'list_registrations',
            title: 'List registrations',
            role: 'organizer',
            description: 'The registrations of your event with contact details and answers; filter by status, track_id or team-name prefix q.',
          },
        },
        schema: {
          tags: ['organizer'],
          summary: 'Registrations of the event, with contact details: one page (cursor pagination, Link rel="next")',
          params: EventIdParams,
          querystring: ListRegistrationsQuery,
          response: { 200: Type.Array(OrganizerRegistrationSchema), ...problems('forbidden', 'event_not_found') },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const page = await registrations.list(principalOf(request), request.params.id, {
          limit: q.limit,
          ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
          ...(q.status ? { status: q.status } : {}),
          ...(q.track_id !== undefined ? { trackId: q.track_id } : {}),
          ...(q.q !== undefined ? { q: q.q } : {}),
        });
        setNextLink(reply, config.publicUrl, `/events/${encodeURIComponent(request.params.id)}/registrations`, q, page.nextCursor);
        return page.rows.map((r) => ({
          ...registrationForApi(r, page.reapplyUntil),
          members: r.members.map((m) => ({ user_id: m.user_id, name: m.name, email: m.email, role: m.role, joined_at: m.joined_at })),
        }));
      },
    );

    app.get(
      '/events/:id/registrations.csv',
      {
        config: { auth: true },
        schema: {
          tags: ['organizer'],
          summary:
            "Every registration of the event as CSV (owners): contact details, status, the team's members (name <e-mail> (role); …) and the form answers",
          params: EventIdParams,
          response: {
            200: { description: 'text/csv', content: { 'text/csv': { schema: Type.String({ description: 'CSV, header row first' }) } } },
            ...problems('forbidden', 'event_not_found'),
          },
        },
      },
      async (request, reply) => {
        const lines = registrations.csv(principalOf(request), request.params.id);
        // The first line (the header) is read before answering, so an owner check fails as problem+json.
        const first = await lines.next();
        const safe = request.params.id.replace(/[^A-Za-z0-9_-]/g, '_');
        async function* all() {
          if (!first.done) yield first.value;
          yield* lines;
        }
        // A stream, which the route's typed reply (a string body) does not describe.
        return (reply as FastifyReply)
          .type('text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="${safe}-registrations.csv"`)
          .send(Readable.from(all()));
      },
    );

    for (const action of ['approve', 'reject'] as const) {
      app.post(
        `/events/:id/registrations/:rid/${action}`,
        {
          config: {
            auth: true,
            idempotent: true,
            mcp:
              action === 'approve'
                ? {
                    name: 'approve_registration',
                    title: 'Approve a registration',
                    role: 'organizer',
                    idempotent: true,
                    description: 'Approve a registration of your event: the team may then submit.',
                  }
                : {
                    name: 'reject_registration',
                    title: 'Reject a registration',
                    role: 'organizer',
                    destructive: true,
                    idempotent: true,
                    description:
                      '`reason` is shown to the team, which may re-apply with changed answers until the registration deadline unless `final` is true.',
                  },
          },
          schema: {
            tags: ['organizer'],
            summary:
              action === 'approve'
                ? 'Approve a registration'
                : 'Reject a registration, with a reason the team can read; `final: true` forbids a re-application',
            params: RegistrationParams,
            body: Type.Optional(action === 'approve' ? DecisionBody : RejectBody),
            response: { 200: RegistrationSchema, ...problems('forbidden', 'event_not_found', 'registration_not_found', 'event_locked') },
          },
        },
        async (request) => {
          const body = request.body as { reason?: string; final?: boolean } | null | undefined;
          const { row, reapplyUntil } = await registrations.decide(
            principalOf(request),
            request.params.id,
            request.params.rid,
            action === 'approve' ? 'approved' : 'rejected',
            body?.reason,
            body?.final === true,
          );
          return registrationForApi(row, reapplyUntil);
        },
      );
    }
  };
}
