import { Type } from 'typebox';
import { Nullable } from '../core/http/schemas.js';

const PAGE_MAX = 100;

export const MyHackathonsQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: PAGE_MAX, default: 50, description: 'events per page' }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'opaque; from the Link rel="next" header' })),
  },
  { additionalProperties: false },
);

export const MyRole = Type.Union([Type.Literal('leader'), Type.Literal('member'), Type.Literal('organizer'), Type.Literal('reviewer')]);

export const MyHackathonSchema = Type.Object({
  event_id: Type.String(),
  event_name: Type.String(),
  status: Type.String({ description: "the event's status now (draft, open, active, judging, ended, cancelled)" }),
  time_zone: Nullable(Type.String({ description: "the organizer's IANA time zone" })),
  roles: Type.Array(MyRole, { description: 'every part the caller has in the event: team leader or member, organizer, reviewer' }),
  team: Nullable(
    Type.Object({
      registration_id: Type.String(),
      team_name: Type.String(),
      status: Type.String({ description: 'registration status: pending, approved, rejected, withdrawn' }),
      reason: Nullable(Type.String()),
    }),
  ),
  registration_deadline: Type.String(),
  submission_deadline: Type.String(),
  result_announced_at: Nullable(Type.String()),
  next_deadline: Nullable(
    Type.Object({
      kind: Type.Union([Type.Literal('registration'), Type.Literal('submission')]),
      at: Type.String(),
    }),
  ),
});
