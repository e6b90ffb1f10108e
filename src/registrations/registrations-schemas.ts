import { Type } from 'typebox';
import type { RegistrationRow } from '../core/db/schema.js';
import { organizerPageQuery } from '../core/http/pagination.js';
import { Nullable } from '../core/http/schemas.js';
import { LONG_POLL_MAX_SECONDS } from '../core/wait-policy.js';
import { GITHUB_REPO_URL_PATTERN, GITHUB_URL_MESSAGE } from '../core/urls.js';
import { ProjectSchema, projectForApi, type ProjectWithAuthor } from './project-schema.js';
import { TeamResultSchema } from './team-result-schema.js';

export const RegisterBody = Type.Object(
  {
    team_name: Type.String({ minLength: 1, maxLength: 80 }),
    contact_email: Type.Optional(Type.String({ maxLength: 254 })),
    github_url: Type.Optional(
      Type.String({
        maxLength: 2048,
        pattern: GITHUB_REPO_URL_PATTERN,
        description: "the team's GitHub repository, https://github.com/<owner>/<repo>",
        errorMessage: GITHUB_URL_MESSAGE,
      }),
    ),
    track_id: Type.Optional(Type.String({ maxLength: 64 })),
    fields: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.Union([Type.String({ maxLength: 2000 }), Type.Number(), Type.Null()]), {
        maxProperties: 50,
      }),
    ),
  },
  { additionalProperties: false },
);

export const RegisterResponse = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  status: Type.String(),
  team_name: Type.String(),
  track_id: Nullable(Type.String()),
  required_fields: Type.Array(Type.Object({ key: Type.String(), label: Type.String() })),
  attempt: Type.Integer({ minimum: 1, description: '1 for a first application, more for a re-application after a rejection' }),
  reapplied: Type.Boolean({ description: 'true (status 200): a rejected registration was sent again and is pending once more' }),
  created_at: Type.String(),
});

const AnswerValue = Type.Union([Type.String(), Type.Number()]);

export const RegistrationSchema = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  status: Type.String(),
  team_name: Type.String(),
  track_id: Nullable(Type.String()),
  contact_email: Type.String(),
  github_url: Nullable(Type.String()),
  fields: Type.Record(Type.String(), AnswerValue),
  reason: Nullable(Type.String()),
  final: Type.Boolean({ description: 'rejected as final: the team may not re-apply' }),
  attempt: Type.Integer({ minimum: 1, description: '1 for the first application, +1 for each re-application after a rejection' }),
  reapplied_at: Nullable(Type.String({ description: 'when the team last re-applied; null for a first application' })),
  reapply_until: Nullable(
    Type.String({
      description: 'rejected and not final: the team may re-apply (POST register again, with changed answers) until this instant; otherwise null',
    }),
  ),
  next_step: Type.String({ description: 'what the team does next, in one sentence' }),
  member_count: Type.Integer({ minimum: 1, description: 'people in the team, the leader counted' }),
  created_at: Type.String(),
  updated_at: Type.String(),
});

/** A registration in the organizer's list: with its team's members (the leader first). */
export const OrganizerRegistrationSchema = Type.Object({
  ...RegistrationSchema.properties,
  members: Type.Array(
    Type.Object({
      user_id: Type.String(),
      name: Type.String(),
      email: Type.String(),
      role: Type.Union([Type.Literal('leader'), Type.Literal('member')]),
      joined_at: Type.String(),
    }),
  ),
});

export const MyRegistrationSchema = Type.Object({
  ...RegistrationSchema.properties,
  project: Nullable(ProjectSchema),
  result: Nullable(TeamResultSchema),
});

export const MyRegistrationQuery = Type.Object(
  {
    wait: Type.Optional(
      Type.Integer({
        minimum: 0,
        // No maximum: a longer wait is capped, not refused (skill.md: "the server caps it").
        description: `seconds to hold a pending registration until decided; above ${LONG_POLL_MAX_SECONDS} (or MAX_WAIT_SECONDS): capped, not refused; still pending: ask again`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const ListRegistrationsQuery = Type.Object(
  {
    status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected'), Type.Literal('withdrawn')])),
    track_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'case-insensitive team-name prefix; results are then ordered by team name' })),
    ...organizerPageQuery,
  },
  { additionalProperties: false },
);

export const DecisionBody = Type.Union([
  Type.Object({ reason: Type.Optional(Type.String({ maxLength: 1000 })) }, { additionalProperties: false }),
  Type.Null(),
]);

export const RejectBody = Type.Union([
  Type.Object(
    {
      reason: Type.Optional(Type.String({ maxLength: 1000 })),
      final: Type.Optional(
        Type.Boolean({
          default: false,
          description: 'true: the team may not re-apply; false (default): it may re-apply with changed answers until the registration deadline',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  Type.Null(),
]);

export const RegistrationParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  rid: Type.String({ minLength: 1, maxLength: 64 }),
});

/** What a team does next with its registration in this state, in one sentence. */
export function nextStep(r: RegistrationRow, reapplyUntil: string | null): string {
  if (r.status === 'approved') return 'Approved: submit your project before the submission deadline.';
  if (r.status === 'pending') return 'Pending: wait for the organizer to decide (GET my-registration?wait=…).';
  if (r.status === 'withdrawn') return 'Withdrawn by the team leader: register again to re-apply, while registration is open.';
  if (r.rejected_final) return 'Rejected as final: you may not re-apply to this event.';
  if (reapplyUntil) return `Rejected: you may re-apply with changed answers (POST register again) until ${reapplyUntil}.`;
  return 'Rejected: registration has closed, so you can no longer re-apply.';
}

export function registrationForApi(r: RegistrationRow, reapplyUntil: string | null) {
  const canReapply = r.status === 'rejected' && !r.rejected_final && reapplyUntil !== null;
  return {
    id: r.id,
    event_id: r.event_id,
    status: r.status,
    team_name: r.team_name,
    track_id: r.track_id,
    contact_email: r.contact_email,
    github_url: r.github_url,
    fields: JSON.parse(r.fields) as Record<string, string | number>,
    reason: r.reason,
    final: r.status === 'rejected' && r.rejected_final === 1,
    attempt: r.attempt,
    reapplied_at: r.reapplied_at,
    reapply_until: canReapply ? reapplyUntil : null,
    next_step: nextStep(r, reapplyUntil),
    member_count: r.member_count,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function myRegistrationForApi(r: RegistrationRow, project: ProjectWithAuthor | null, reapplyUntil: string | null, publicUrl: string) {
  return { ...registrationForApi(r, reapplyUntil), project: project ? projectForApi(project, publicUrl, r.team_name) : null };
}
