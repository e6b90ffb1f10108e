import { Type } from 'typebox';
import { Nullable } from '../core/http/schemas.js';
import { ProjectSchema, projectForApi } from '../registrations/project-schema.js';
import { TeamResultSchema } from '../registrations/team-result-schema.js';
import type { TeamView } from './teams-service.js';

export const TeamRoleSchema = Type.Union([Type.Literal('leader'), Type.Literal('member')]);

export const TeamMemberSchema = Type.Object({
  user_id: Type.String(),
  name: Type.String({ description: "the account's display name (the part of the e-mail before @ when it has none)" }),
  email: Type.String({ description: 'visible to teammates only' }),
  role: TeamRoleSchema,
  joined_at: Type.String(),
});

export const TeamInvitationSummarySchema = Type.Object({
  id: Type.String({ description: 'tinv_…; revoke with DELETE …/team/invitations/{id}' }),
  email: Nullable(Type.String()),
  created_at: Type.String(),
  expires_at: Type.String(),
});

export const TeamSchema = Type.Object({
  event_id: Type.String(),
  registration_id: Type.String(),
  team_name: Type.String(),
  status: Type.String({ description: 'pending | approved | rejected | withdrawn' }),
  reason: Nullable(Type.String({ description: "the organizer's reason for a rejection" })),
  rejected_final: Type.Boolean(),
  track_id: Nullable(Type.String()),
  your_role: TeamRoleSchema,
  leader: Type.Object({ user_id: Type.String(), name: Type.String() }),
  members: Type.Array(TeamMemberSchema),
  member_count: Type.Integer({ minimum: 1 }),
  max_team_size: Nullable(Type.Integer({ description: 'the most members the event allows, the leader counted; null: no limit' })),
  min_team_size: Nullable(Type.Integer({ description: 'the fewest members needed to submit, the leader counted; null: no limit' })),
  invitations: Type.Array(TeamInvitationSummarySchema, { description: 'open join codes (leader only; [] for members)' }),
  project: Nullable(ProjectSchema),
  result: Type.Union([TeamResultSchema, Type.Null()], {
    description: "the team's own result once published (GET only; null before, and in the answers of the changes)",
  }),
});

export const RenameTeamBody = Type.Object({ team_name: Type.String({ minLength: 1, maxLength: 80 }) }, { additionalProperties: false });

export const CreateInvitationBody = Type.Union([
  Type.Object(
    {
      email: Type.Optional(Type.String({ maxLength: 254, description: 'send the join link to this address' })),
      expires_in_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 720, default: 72, description: 'how long the code works (default 72)' })),
    },
    { additionalProperties: false },
  ),
  Type.Null(),
]);

export const InvitationCreatedSchema = Type.Object({
  id: Type.String(),
  join_code: Type.String({ description: 'shown only in this answer' }),
  join_url: Type.String({ description: 'the web page that joins with the code: {site}/hackathons/{event_id}/join?code=…' }),
  expires_at: Type.String(),
  email: Nullable(Type.String()),
});

export const JoinBody = Type.Object({ join_code: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });
export const HandOverBody = Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

export const InvitationParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), code: Type.String({ minLength: 1, maxLength: 200 }) });
export const MemberParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), user_id: Type.String({ minLength: 1, maxLength: 64 }) });

export function teamForApi(t: TeamView, publicUrl: string) {
  const r = t.registration;
  const leader = t.members.find((m) => m.role === 'leader');
  return {
    event_id: r.event_id,
    registration_id: r.id,
    team_name: r.team_name,
    status: r.status,
    reason: r.reason,
    rejected_final: r.status === 'rejected' && r.rejected_final === 1,
    track_id: r.track_id,
    your_role: t.role,
    leader: { user_id: r.user_id, name: leader?.name ?? '' },
    members: t.members.map((m) => ({ user_id: m.user_id, name: m.name, email: m.email, role: m.role, joined_at: m.joined_at })),
    member_count: t.members.length,
    max_team_size: t.event.max_team_size,
    min_team_size: t.event.min_team_size,
    invitations: t.invitations,
    project: t.project ? projectForApi(t.project, publicUrl, r.team_name) : null,
    result: null,
  };
}
