import { Type } from 'typebox';
import { principalOf, type App } from '../core/http/app-types.js';
import { problems } from '../core/http/schemas.js';
import { EventIdParams } from '../events/events-schemas.js';
import {
  CreateInvitationBody,
  HandOverBody,
  InvitationCreatedSchema,
  InvitationParams,
  JoinBody,
  MemberParams,
  RenameTeamBody,
  TeamSchema,
  teamForApi,
} from './teams-schemas.js';
import type { TeamsService } from './teams-service.js';
import type { TeamResultSource } from '../registrations/team-result-schema.js';

const NoContent = (description: string) => Type.Null({ description });

export interface TeamsRoutesDeps {
  teams: TeamsService;
  /** The team's own result after publication (the results domain, passed in by the wiring). */
  results: TeamResultSource;
  /** Where the site is served: a project's screenshot URLs start with it. */
  config: { publicUrl: string };
}

/** The caller's team in an event: read by every member; changed by its leader, joined with a code. */
export function teamsRoutes(ctx: TeamsRoutesDeps) {
  const { teams, config } = ctx;
  const tags = ['teams'];

  return async function plugin(app: App) {
    app.get(
      '/events/:id/team',
      {
        config: {
          auth: true,
          mcp: {
            name: 'get_team',
            title: 'Get my team',
            role: 'participant',
            description: 'Your team: status, leader, members, your_role, size limits, join codes (leader) and project.',
          },
        },
        schema: {
          tags,
          summary:
            "The caller's team: name, status, leader, members (with e-mail, teammates only), open join codes (leader), project, and its result once published",
          params: EventIdParams,
          response: { 200: TeamSchema, ...problems('event_not_found', 'not_registered') },
        },
      },
      async (request) => {
        const view = await teams.get(principalOf(request), request.params.id);
        return { ...teamForApi(view, config.publicUrl), result: await ctx.results.teamResult(view.registration) };
      },
    );

    app.patch(
      '/events/:id/team',
      {
        config: {
          auth: true,
          mcp: {
            name: 'rename_team',
            title: 'Rename the team',
            role: 'participant',
            description: "Team leaders: change the team's name while the registration is pending.",
          },
        },
        schema: {
          tags,
          summary: 'Rename the team (leader, while the registration is pending)',
          params: EventIdParams,
          body: RenameTeamBody,
          response: {
            200: TeamSchema,
            ...problems('event_not_found', 'not_registered', 'not_team_leader', 'registration_not_pending', 'team_name_taken'),
          },
        },
      },
      async (request) => teamForApi(await teams.rename(principalOf(request), request.params.id, request.body.team_name), config.publicUrl),
    );

    app.delete(
      '/events/:id/team',
      {
        config: {
          auth: true,
          mcp: {
            name: 'withdraw_registration',
            title: 'Withdraw the registration',
            role: 'participant',
            destructive: true,
            description: 'Team leaders: withdraw the registration (out of judging, codes revoked); register_team re-applies.',
          },
        },
        schema: {
          tags,
          summary: 'Withdraw the registration (leader): status withdrawn, out of judging; the team may register again',
          params: EventIdParams,
          response: { 200: TeamSchema, ...problems('event_not_found', 'not_registered', 'not_team_leader', 'event_locked') },
        },
      },
      async (request) => teamForApi(await teams.withdraw(principalOf(request), request.params.id), config.publicUrl),
    );

    app.post(
      '/events/:id/team/invitations',
      {
        config: {
          auth: true,
          mcp: {
            name: 'create_team_invitation',
            title: 'Invite a team member',
            role: 'participant',
            description: 'Team leaders: make a join code for join_team (shown once; `email` mails the link).',
          },
        },
        schema: {
          tags,
          summary: 'Make a join code (leader); `email` also sends the join link there. The code is shown only in this answer',
          params: EventIdParams,
          body: CreateInvitationBody,
          response: {
            201: InvitationCreatedSchema,
            ...problems('event_not_found', 'not_registered', 'not_team_leader', 'submission_closed', 'registration_not_pending'),
          },
        },
      },
      async (request, reply) => {
        const body = request.body ?? {};
        const created = await teams.invite(principalOf(request), request.params.id, body);
        reply.status(201);
        return created;
      },
    );

    app.delete(
      '/events/:id/team/invitations/:code',
      {
        config: {
          auth: true,
          mcp: {
            name: 'revoke_team_invitation',
            title: 'Revoke a join code',
            role: 'participant',
            destructive: true,
            args: { code: 'the join code, or its invitation id (tinv_…) from get_team' },
            description: 'Team leaders: revoke a join code; nobody can join with it afterwards.',
          },
        },
        schema: {
          tags,
          summary: 'Revoke a join code (leader); `:code` is the join code or the invitation id',
          params: InvitationParams,
          response: { 204: NoContent('revoked'), ...problems('event_not_found', 'not_registered', 'not_team_leader', 'join_code_invalid') },
        },
      },
      async (request, reply) => {
        await teams.revokeInvitation(principalOf(request), request.params.id, request.params.code);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/events/:id/team/join',
      {
        config: {
          auth: true,
          mcp: {
            name: 'join_team',
            title: 'Join a team',
            role: 'participant',
            idempotent: true,
            description: "Join a team with its leader's join code (until the submission deadline).",
          },
        },
        schema: {
          tags,
          summary: "Join a team with its join code (open until the submission deadline; at most the event's max_team_size members)",
          params: EventIdParams,
          body: JoinBody,
          response: {
            200: TeamSchema,
            ...problems('event_not_found', 'join_code_invalid', 'team_full', 'already_in_team', 'submission_closed'),
          },
        },
      },
      async (request) => teamForApi(await teams.join(principalOf(request), request.params.id, request.body.join_code), config.publicUrl),
    );

    app.post(
      '/events/:id/team/leave',
      {
        config: {
          auth: true,
          mcp: {
            name: 'leave_team',
            title: 'Leave the team',
            role: 'participant',
            destructive: true,
            idempotent: true,
            description: 'Leave your team (a leader hands over first with hand_over_team, or withdraws when alone).',
          },
        },
        schema: {
          tags,
          summary: 'Leave the team (a member; the leader hands over first, or withdraws when alone)',
          params: EventIdParams,
          response: { 204: NoContent('left'), ...problems('event_not_found', 'not_registered', 'leader_must_hand_over') },
        },
      },
      async (request, reply) => {
        await teams.leave(principalOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.delete(
      '/events/:id/team/members/:user_id',
      {
        config: {
          auth: true,
          mcp: {
            name: 'remove_team_member',
            title: 'Remove a team member',
            role: 'participant',
            destructive: true,
            args: { user_id: "a member's user_id, from get_team" },
            description: 'Team leaders: remove a member; they lose access to the registration at once.',
          },
        },
        schema: {
          tags,
          summary: 'Remove a member from the team (leader)',
          params: MemberParams,
          response: {
            204: NoContent('removed'),
            ...problems('event_not_found', 'not_registered', 'not_team_leader', 'team_member_not_found', 'leader_must_hand_over'),
          },
        },
      },
      async (request, reply) => {
        await teams.removeMember(principalOf(request), request.params.id, request.params.user_id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/events/:id/team/leader',
      {
        config: {
          auth: true,
          mcp: {
            name: 'hand_over_team',
            title: 'Hand over the team',
            role: 'participant',
            destructive: true,
            idempotent: true,
            description: 'Team leaders: make another member the leader; you become a member.',
          },
        },
        schema: {
          tags,
          summary: 'Hand leadership to another member (leader); the caller becomes a member',
          params: EventIdParams,
          body: HandOverBody,
          response: { 200: TeamSchema, ...problems('event_not_found', 'not_registered', 'not_team_leader', 'team_member_not_found') },
        },
      },
      async (request) => teamForApi(await teams.handOver(principalOf(request), request.params.id, request.body.user_id), config.publicUrl),
    );
  };
}
