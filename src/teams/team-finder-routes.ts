import { Type } from 'typebox';
import { principalOf, type App } from '../core/http/app-types.js';
import { problems } from '../core/http/schemas.js';
import { EventIdParams } from '../events/events-schemas.js';
import {
  DecideBody,
  FinderQuery,
  FinderSchema,
  JoinRequestBody,
  JoinRequestSchema,
  EntryBody,
  EntrySchema,
  RequestParams,
  TeamParams,
} from './team-finder-schemas.js';
import type { TeamFinderService } from './team-finder-service.js';

export interface TeamFinderRoutesDeps {
  teamFinder: TeamFinderService;
}

/** The team finder: people looking for a team, teams' needs, join requests. */
export function teamFinderRoutes(ctx: TeamFinderRoutesDeps) {
  const { teamFinder } = ctx;
  const tags = ['teams'];

  return async function plugin(app: App) {
    app.get(
      '/events/:id/team-finder',
      {
        config: {
          auth: true,
          mcp: {
            name: 'find_team',
            title: 'Team finder',
            role: 'participant',
            description: 'Who looks for a team, teams with room, join requests.',
          },
        },
        schema: {
          tags,
          summary: 'The team finder: people looking, teams with room and what they need, your requests (for people in a team of the event or looking)',
          params: EventIdParams,
          querystring: FinderQuery,
          response: { 200: FinderSchema, ...problems('event_not_found', 'forbidden') },
        },
      },
      async (request) => teamFinder.overview(principalOf(request), request.params.id, request.query.skill),
    );

    app.put(
      '/events/:id/team-finder/me',
      {
        config: {
          auth: true,
          mcp: {
            name: 'set_team_finder_entry',
            title: 'Team finder entry',
            role: 'participant',
            idempotent: true,
            description: "In no team: list yourself as looking. A leader: your team's needed skills.",
          },
        },
        schema: {
          tags,
          summary:
            "Your entry in the team finder (until the submission deadline): in no team of the event, you are listed as looking; as a team's leader, it is what the team needs",
          params: EventIdParams,
          body: EntryBody,
          response: { 200: EntrySchema, ...problems('event_not_found', 'not_team_leader', 'submission_closed') },
        },
      },
      async (request) => teamFinder.setEntry(principalOf(request), request.params.id, request.body),
    );

    app.delete(
      '/events/:id/team-finder/me',
      {
        config: { auth: true },
        schema: {
          tags,
          summary: "Take your entry away: no longer looking, or (a leader) the team's needs cleared. Idempotent",
          params: EventIdParams,
          response: { 204: Type.Null({ description: 'removed' }), ...problems('event_not_found') },
        },
      },
      async (request, reply) => {
        await teamFinder.clearEntry(principalOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/events/:id/team-finder/teams/:registration_id/requests',
      {
        config: {
          auth: true,
          mcp: {
            name: 'request_to_join_team',
            title: 'Ask to join a team',
            role: 'participant',
            args: { registration_id: 'a team from find_team' },
            description: 'Ask a team to take you; its leader answers.',
          },
        },
        schema: {
          tags,
          summary: 'Ask to join a team with room (you in no team; one pending request per team); the leader gets a mail',
          params: TeamParams,
          body: JoinRequestBody,
          response: {
            201: JoinRequestSchema,
            ...problems('event_not_found', 'team_not_found', 'already_in_team', 'team_full', 'join_request_exists', 'submission_closed'),
          },
        },
      },
      async (request, reply) => {
        const created = await teamFinder.requestToJoin(principalOf(request), request.params.id, request.params.registration_id, request.body?.message);
        reply.status(201);
        return created;
      },
    );

    app.patch(
      '/events/:id/join-requests/:request_id',
      {
        config: {
          auth: true,
          mcp: {
            name: 'answer_join_request',
            title: 'Answer a join request',
            role: 'participant',
            description: 'Leader: accepted or declined. Requester: withdrawn.',
          },
        },
        schema: {
          tags,
          summary: 'Accept or decline a join request (leader; accepting makes the person a member), or withdraw your own',
          params: RequestParams,
          body: DecideBody,
          response: {
            200: JoinRequestSchema,
            ...problems(
              'event_not_found',
              'join_request_not_found',
              'join_request_not_pending',
              'not_team_leader',
              'team_full',
              'already_in_team',
              'submission_closed',
            ),
          },
        },
      },
      async (request) => teamFinder.decide(principalOf(request), request.params.id, request.params.request_id, request.body.status),
    );
  };
}
