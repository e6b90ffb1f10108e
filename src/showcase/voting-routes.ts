import { Type } from 'typebox';
import { principalOf, type App } from '../core/http/app-types.js';
import { problems } from '../core/http/schemas.js';
import { EventIdParams } from '../events/events-schemas.js';
import { GalleryProjectParams } from './gallery-schemas.js';
import type { VotingService } from './voting-service.js';
import { MyVotesSchema as MyVotes, PeoplesChoiceSchema as PeoplesChoice, TallySchema as Tally, VoteSchema } from './voting-schemas.js';

/** The voting routes take these from the wiring. */
export interface VotingRoutesDeps {
  voting: VotingService;
}

export function votingRoutes(ctx: VotingRoutesDeps) {
  const { voting } = ctx;
  return async function plugin(app: App) {
    app.post(
      '/events/:id/gallery/:project_id/vote',
      {
        config: {
          auth: true,
          idempotent: true,
          mcp: {
            name: 'vote_for_project',
            title: 'Vote for a project',
            role: 'participant',
            idempotent: true,
            args: { project_id: 'project id (prj_…), from list_gallery' },
            description:
              "People's choice: vote for a project while voting is open (never your own team's); you hold votes_per_person votes (per track when per_track).",
          },
        },
        schema: {
          tags: ['showcase'],
          summary: "Vote for a project (people's choice): 201 a new vote, 200 when it was already yours",
          params: GalleryProjectParams,
          response: {
            200: VoteSchema,
            201: VoteSchema,
            ...problems('event_not_found', 'project_not_found', 'voting_closed', 'own_project', 'vote_limit_reached', 'project_not_in_vote', 'account_too_new'),
          },
        },
      },
      async (request, reply) => {
        const { created, vote } = await voting.vote(principalOf(request), request.params.id, request.params.project_id);
        reply.status(created ? 201 : 200);
        return vote;
      },
    );

    app.delete(
      '/events/:id/gallery/:project_id/vote',
      {
        config: {
          auth: true,
          mcp: {
            name: 'withdraw_vote',
            title: 'Withdraw a vote',
            role: 'participant',
            destructive: true,
            args: { project_id: 'project id (prj_…), from get_my_votes' },
            description: 'Withdraw your vote for a project while voting is open (to vote for another).',
          },
        },
        schema: {
          tags: ['showcase'],
          summary: 'Withdraw your vote for a project (while voting is open)',
          params: GalleryProjectParams,
          response: { 204: Type.Null(), ...problems('event_not_found', 'voting_closed', 'vote_not_found') },
        },
      },
      async (request, reply) => {
        await voting.unvote(principalOf(request), request.params.id, request.params.project_id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/events/:id/votes/me',
      {
        config: {
          auth: true,
          mcp: {
            name: 'get_my_votes',
            title: 'Get my votes',
            role: 'participant',
            description: 'Your votes in an event, whether voting is open, its window and how many votes you have.',
          },
        },
        schema: {
          tags: ['showcase'],
          summary: 'Your votes in an event, the voting window and how many votes you have',
          params: EventIdParams,
          response: { 200: MyVotes, ...problems('event_not_found') },
        },
      },
      async (request) => voting.mine(principalOf(request), request.params.id),
    );

    app.get(
      '/events/:id/votes',
      {
        config: { auth: true },
        schema: {
          tags: ['organizer'],
          summary: "The vote's counts per project and per hour (owners only: hidden from everyone else until publication)",
          params: EventIdParams,
          response: { 200: Tally, ...problems('forbidden', 'event_not_found') },
        },
      },
      async (request) => voting.tally(principalOf(request), request.params.id),
    );

    for (const method of ['put', 'delete'] as const) {
      app[method](
        '/events/:id/votes/exclusions/:project_id',
        {
          config: { auth: true },
          schema: {
            tags: ['organizer'],
            summary: method === 'put' ? 'Take a project out of the vote (its votes stop counting)' : 'Put a project back into the vote',
            params: GalleryProjectParams,
            response: { 204: Type.Null(), ...problems('forbidden', 'event_not_found', 'project_not_found', 'results_already_published') },
          },
        },
        async (request, reply) => {
          await voting.setExcluded(principalOf(request), request.params.id, request.params.project_id, method === 'put');
          return reply.code(204).send(null);
        },
      );
    }

    app.get(
      '/events/:id/result/peoples-choice',
      {
        config: {
          mcp: {
            name: 'get_peoples_choice',
            title: "Get the people's choice",
            role: 'participant',
            description: "The people's choice published with the results: projects by votes, most first (before publication: results_not_published).",
          },
        },
        schema: {
          tags: ['results'],
          summary: "The people's choice published with the results: projects by votes, most first",
          params: EventIdParams,
          response: { 200: PeoplesChoice, ...problems('event_not_found', 'results_not_published') },
        },
      },
      async (request) => voting.published(request.principal, request.params.id),
    );
  };
}
