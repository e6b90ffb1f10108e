import { Type } from 'typebox';
import { Nullable } from '../core/http/schemas.js';
import { FINDER_LIMITS } from './team-finder.js';

const Skills = Type.Array(Type.String({ maxLength: FINDER_LIMITS.skillLength }), { maxItems: FINDER_LIMITS.skills });

export const EntryBody = Type.Object(
  {
    line: Type.Optional(Type.String({ maxLength: FINDER_LIMITS.line })),
    skills: Type.Optional(Skills),
  },
  { additionalProperties: false },
);

export const EntrySchema = Type.Object({
  as: Type.Union([Type.Literal('person'), Type.Literal('team')], { description: "person: you are listed as looking; team: your team's needs (leader)" }),
  registration_id: Nullable(Type.String()),
  line: Type.String(),
  skills: Type.Array(Type.String(), { description: 'normalised: trimmed, lower case, spaces as "-", no duplicates' }),
  updated_at: Type.String(),
});

export const JoinRequestBody = Type.Union([
  Type.Object({ message: Type.Optional(Type.String({ maxLength: FINDER_LIMITS.message })) }, { additionalProperties: false }),
  Type.Null(),
]);

export const DecideBody = Type.Object(
  {
    status: Type.Union([Type.Literal('accepted'), Type.Literal('declined'), Type.Literal('withdrawn')]),
  },
  { additionalProperties: false },
);

export const FinderQuery = Type.Object({ skill: Type.Optional(Type.String({ minLength: 1, maxLength: FINDER_LIMITS.skillLength })) });
export const TeamParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), registration_id: Type.String({ minLength: 1, maxLength: 64 }) });
export const RequestParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), request_id: Type.String({ minLength: 1, maxLength: 64 }) });

export const SeekerSchema = Type.Object({
  user_id: Type.String(),
  name: Type.String({ description: 'display name (never an e-mail address)' }),
  line: Type.String(),
  skills: Type.Array(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const JoinRequestSchema = Type.Object({
  id: Type.String({ description: 'tjr_…' }),
  event_id: Type.String(),
  registration_id: Type.String(),
  team_name: Type.String(),
  user_id: Type.String(),
  name: Type.String({ description: "the requester's display name" }),
  message: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('declined'), Type.Literal('withdrawn')]),
  created_at: Type.String(),
  decided_at: Nullable(Type.String()),
});

const NeedsSchema = Type.Object({ line: Type.String(), skills: Type.Array(Type.String()) });

export const FinderSchema = Type.Object({
  event_id: Type.String(),
  max_team_size: Nullable(Type.Integer()),
  open: Type.Boolean({ description: 'whether teams may still change (until the submission deadline)' }),
  you: Type.Object({
    looking: Nullable(SeekerSchema),
    registration_id: Nullable(Type.String({ description: 'your team, if you are in one' })),
    role: Nullable(Type.Union([Type.Literal('leader'), Type.Literal('member')])),
    team_needs: Nullable(NeedsSchema),
  }),
  people: Type.Array(SeekerSchema, { description: 'people looking for a team' }),
  teams: Type.Array(
    Type.Object({
      registration_id: Type.String(),
      team_name: Type.String(),
      leader_name: Type.String(),
      member_count: Type.Integer(),
      free_places: Nullable(Type.Integer({ description: 'null: no limit' })),
      line: Type.String(),
      skills: Type.Array(Type.String()),
    }),
    { description: 'teams with room, those saying what they need first' },
  ),
  my_requests: Type.Array(JoinRequestSchema),
  team_requests: Type.Array(JoinRequestSchema, { description: 'requests to your team (leader only)' }),
});
