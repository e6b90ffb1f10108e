import { Type } from 'typebox';
import { Nullable } from '../core/http/schemas.js';
import { PER_PROJECT_MAX } from './assignments-service.js';

const Id = Type.String({ minLength: 1, maxLength: 64 });

export const EventAssignmentParams = Type.Object({ id: Id, project_id: Id });
export const EventConflictParams = Type.Object({ id: Id, userId: Id, project_id: Id });

export const AutoAssignBody = Type.Object(
  {
    per_project: Type.Integer({ minimum: 1, maximum: PER_PROJECT_MAX, description: 'Reviewers per project (k)' }),
    same_email_domain_conflicts: Type.Optional(
      Type.Boolean({
        description: "A reviewer whose e-mail domain is a team member's has a conflict of interest with that team's project (unchanged when left out)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const AssignmentSettingsBody = Type.Object(
  {
    review_mode: Type.Optional(
      Type.Union([Type.Literal('every'), Type.Literal('assigned')], {
        description: 'every: each reviewer reviews every project; assigned: per_project reviewers each (set by POST .../assignments/auto first)',
      }),
    ),
    same_email_domain_conflicts: Type.Optional(
      Type.Boolean({ description: 'A reviewer sharing an e-mail domain with a team member has a conflict of interest' }),
    ),
  },
  { additionalProperties: false },
);

export const AssignmentSummary = Type.Object({
  review_mode: Type.Union([Type.Literal('every'), Type.Literal('assigned')]),
  per_project: Nullable(Type.Integer({ description: 'k: reviewers per project, once set' })),
  same_email_domain_conflicts: Type.Boolean(),
  projects: Type.Integer({ description: 'Judged projects' }),
  reviewers: Type.Integer(),
  assignments: Type.Integer({ description: 'Assigned (project, reviewer) pairs of judged projects' }),
  projects_short: Type.Integer({ description: 'Projects with fewer than per_project reviewers (too few reviewers without a conflict)' }),
  min_load: Type.Integer({ description: 'The fewest projects a reviewer has' }),
  max_load: Type.Integer({ description: 'The most projects a reviewer has' }),
});

export const ProjectAssignment = Type.Object({
  project_id: Type.String(),
  project_name: Type.String(),
  team_name: Type.String(),
  reviewer_ids: Type.Array(Type.String()),
  reviewed_by: Type.Array(Type.String(), { description: 'Those of reviewer_ids who have reviewed it' }),
  manual: Type.Boolean({ description: 'Set by hand: never topped up or moved by the automatic rule' }),
});

export const AssignmentsList = Type.Array(ProjectAssignment, { description: 'One page of the judged projects, first submitted first' });

export const SetAssignmentBody = Type.Object(
  {
    reviewer_ids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      maxItems: PER_PROJECT_MAX,
      description: "The project's reviewers (user ids of the event's reviewers); [] hands it back to the automatic rule",
    }),
  },
  { additionalProperties: false },
);

export const SetAssignmentResponse = Type.Object({
  project_id: Type.String(),
  reviewer_ids: Type.Array(Type.String()),
  manual: Type.Boolean(),
});
