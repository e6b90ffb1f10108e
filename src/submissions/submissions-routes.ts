import { Type } from 'typebox';
import { principalOf, type App } from '../core/http/app-types.js';
import type { SubmissionsService } from './submissions-service.js';
import type { Config } from '../core/config.js';
import { organizerPageQuery, setNextLink } from '../core/http/pagination.js';
import { problems } from '../core/http/schemas.js';
import { EventIdParams } from '../events/events-schemas.js';
import { ProjectSchema, projectForApi } from '../registrations/project-schema.js';
import { SubmitBody, SubmitResponse } from './submissions-schemas.js';

/** The submissions routes take these from the wiring. */
export interface SubmissionsRoutesDeps {
  submissions: SubmissionsService;
  config: Config;
}

export function submissionsRoutes(ctx: SubmissionsRoutesDeps) {
  const { submissions, config } = ctx;
  return async function plugin(app: App) {
    app.post(
      '/events/:id/submit',
      {
        config: {
          auth: true,
          idempotent: true,
          mcp: {
            name: 'submit_project',
            title: 'Submit or update the project',
            role: 'participant',
            destructive: true,
            idempotent: true,
            description:
              'Submit your project (approved teams, until the submission deadline). Send the whole project each time: a second call replaces it (`updated: true`).',
          },
        },
        schema: {
          tags: ['submission'],
          summary: "Create (201) or replace (200) the team's project until the submission deadline",
          params: EventIdParams,
          body: SubmitBody,
          response: {
            200: SubmitResponse,
            201: SubmitResponse,
            ...problems('registration_not_approved', 'not_registered', 'event_not_found', 'submission_closed', 'team_too_small'),
          },
        },
      },
      async (request, reply) => {
        const { project, created, teamName } = await submissions.submit(principalOf(request), request.params.id, request.body);
        reply.status(created ? 201 : 200);
        return { ...projectForApi(project, config.publicUrl, teamName), updated: !created };
      },
    );

    app.get(
      '/events/:id/projects',
      {
        config: { auth: true },
        schema: {
          tags: ['organizer'],
          summary: 'Submitted projects of the event, first submitted first: one page (cursor pagination, Link rel="next")',
          params: EventIdParams,
          querystring: Type.Object({ ...organizerPageQuery }, { additionalProperties: false }),
          response: {
            200: Type.Array(
              Type.Object({
                ...ProjectSchema.properties,
                registration_status: Type.String(),
                open_flags: Type.Integer({
                  description: 'flags of the project (screening, build window) not yet checked by an organizer (see its review page)',
                }),
              }),
            ),
            ...problems('forbidden', 'event_not_found'),
          },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const page = await submissions.listForEvent(principalOf(request), request.params.id, {
          limit: q.limit,
          ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
        });
        setNextLink(reply, config.publicUrl, `/events/${encodeURIComponent(request.params.id)}/projects`, q, page.nextCursor);
        return page.rows.map((r) => ({
          ...projectForApi(r, config.publicUrl, r.team_name),
          registration_status: r.registration_status,
          open_flags: Number(r.open_flags ?? 0),
        }));
      },
    );
  };
}
