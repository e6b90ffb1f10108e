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
  LookingBody,
  NeedsBody,
  NeedsSchema,
  RequestParams,
  SeekerSchema,
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
            description: 'People looking for a team and teams with room (filter by skill), your join requests and, for leaders, requests to your team.',
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
            name: 'set_looking_for_team',
            title: 'Look for a team',
            role: 'participant',
            idempotent: true,
            description: 'Mark yourself looking for a team (a line, skills) when you are in none; leaders see you in find_team.',
          },
        },
        schema: {
          tags,
          summary: 'Mark yourself looking for a team, or change your entry (only while in no team of the event, until the submission deadline)',
          params: EventIdParams,
          body: LookingBody,
          response: { 200: SeekerSchema, ...problems('event_not_found', 'already_in_team', 'submission_closed') },
        },
      },
      async (request) => teamFinder.setLooking(principalOf(request), request.params.id, request.body),
    );

    app.delete(
      '/events/:id/team-finder/me',
      {
        config: { auth: true },
        schema: {
          tags,
          summary: 'Stop looking for a team (idempotent)',
          params: EventIdParams,
          response: { 204: Type.Null({ description: 'not looking' }), ...problems('event_not_found') },
        },
      },
      async (request, reply) => {
        await teamFinder.stopLooking(principalOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.put(
      '/events/:id/team/needs',
      {
        config: {
          auth: true,
          mcp: {
            name: 'set_team_needs',
            title: 'Say what the team needs',
            role: 'participant',
            idempotent: true,
            description: 'Team leaders: the skills your team needs and a line; shown in find_team.',
          },
        },
        schema: {
          tags,
          summary: 'Set the skills the team needs and a line (leader, until the submission deadline)',
          params: EventIdParams,
          body: NeedsBody,
          response: { 200: NeedsSchema, ...problems('event_not_found', 'not_registered', 'not_team_leader', 'submission_closed') },
        },
      },
      async (request) => teamFinder.setNeeds(principalOf(request), request.params.id, request.body),
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
            description: 'Ask a team from find_team to take you (a message); its leader accepts or declines.',
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
            description: 'Leaders: status accepted (they join your team) or declined; the requester: withdrawn.',
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
