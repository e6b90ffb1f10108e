import { Type } from 'typebox';
import type { ReviewRow } from '../core/db/schema.js';
import { organizerPageQuery } from '../core/http/pagination.js';
import { Nullable } from '../core/http/schemas.js';
import { ProjectReviewStatusSchema } from '../registrations/project-schema.js';

export const ReviewStatusSchema = Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('succeeded'), Type.Literal('failed')]);

export const ListReviewsQuery = Type.Object({
  status: Type.Optional(ReviewStatusSchema),
  project_id: Type.Optional(Type.String({ maxLength: 64 })),
  /** Include each review's raw model reply (for audit); off by default because replies are large. */
  include_raw: Type.Optional(Type.Boolean({ default: false })),
  ...organizerPageQuery,
});

/** A re-run request; no body at all (or null) means the default: every failed review. */
export const RerunBody = Type.Object(
  {
    model: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'a model identifier of the event, e.g. openai/gpt-4o-mini' })),
    status: Type.Optional(Type.Literal('failed', { description: "only that model's failed reviews" })),
  },
  { additionalProperties: false },
);
export const RerunBodyOrNone = Type.Union([RerunBody, Type.Null()]);

export const RerunResponse = Type.Object({ event_id: Type.String(), requeued: Type.Integer() });

export const ReviewSchema = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  project_id: Type.String(),
  project_name: Type.String(),
  team_name: Type.String(),
  reviewer: Type.String({ description: 'model identifier, or the human reviewer’s user id' }),
  reviewer_kind: Type.Union([Type.Literal('model'), Type.Literal('human')]),
  group: Type.String({ description: 'scoring group: the model identifier, or "human"' }),
  status: ReviewStatusSchema,
  scores: Nullable(Type.Record(Type.String(), Type.Number())),
  summary: Nullable(Type.String()),
  attempts: Type.Integer(),
  failure_reason: Nullable(Type.String({ description: 'why the review failed (only when status is failed)' })),
  last_error: Nullable(Type.String({ description: 'the latest attempt’s error, also while a retry is queued' })),
  next_attempt_at: Nullable(Type.String()),
  latency_ms: Nullable(Type.Integer()),
  input_tokens: Nullable(Type.Integer()),
  output_tokens: Nullable(Type.Integer()),
  raw_reply: Type.Optional(Nullable(Type.String())),
  created_at: Type.String(),
  updated_at: Type.String(),
  completed_at: Nullable(Type.String()),
});

export function reviewForApi(r: ReviewRow & { project_name: string; team_name: string }, includeRaw: boolean) {
  return {
    id: r.id,
    event_id: r.event_id,
    project_id: r.project_id,
    project_name: r.project_name,
    team_name: r.team_name,
    reviewer: r.reviewer,
    reviewer_kind: r.reviewer_kind,
    group: r.group_key,
    status: r.status,
    scores: r.scores ? (JSON.parse(r.scores) as Record<string, number>) : null,
    summary: r.summary,
    attempts: r.attempts,
    failure_reason: r.status === 'failed' ? r.last_error : null,
    last_error: r.last_error,
    next_attempt_at: r.status === 'queued' ? r.next_attempt_at : null,
    latency_ms: r.latency_ms,
    input_tokens: r.input_tokens,
    output_tokens: r.output_tokens,
    ...(includeRaw ? { raw_reply: r.raw_reply } : {}),
    created_at: r.created_at,
    updated_at: r.updated_at,
    completed_at: r.completed_at,
  };
}

export const EventProjectReviewsParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  project_id: Type.String({ minLength: 1, maxLength: 64 }),
});

const Scores = Type.Record(Type.String(), Type.Number(), { description: 'dimension name -> score 0..10' });

export const ProjectAiReviewSchema = Type.Object({
  id: Type.String(),
  model: Type.String({ description: 'model identifier (provider/model)' }),
  status: ReviewStatusSchema,
  scores: Nullable(Scores),
  summary: Nullable(Type.String({ description: "the model's summary, plain text (only when succeeded)" })),
  attempts: Type.Integer(),
  failure_reason: Nullable(Type.String({ description: 'why the review failed (only when status is failed)' })),
  last_error: Nullable(Type.String({ description: 'the latest attempt’s error, also while a retry is queued' })),
  next_attempt_at: Nullable(Type.String()),
  latency_ms: Nullable(Type.Integer()),
  input_tokens: Nullable(Type.Integer()),
  output_tokens: Nullable(Type.Integer()),
  created_at: Type.String(),
  updated_at: Type.String(),
  completed_at: Nullable(Type.String()),
});

export const ProjectHumanReviewSchema = Type.Object({
  id: Type.String(),
  reviewer_id: Type.String(),
  reviewer_name: Nullable(Type.String({ description: "the reviewer's display name, null when they set none" })),
  reviewer_email: Nullable(Type.String({ description: 'null only when the account no longer exists' })),
  scores: Scores,
  comment: Nullable(Type.String({ description: "the reviewer's comment, plain text" })),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const ProjectFlagSchema = Type.Object({
  id: Type.String(),
  kind: Type.String({
    description:
      'prompt_injection: a passage addressed to the evaluator (cut from what the models saw); build_window: a finding of the build-window checks of the GitHub repository',
  }),
  source: Type.String({
    description:
      'prompt_injection: where it was found (project.name, project.description, repository.readme); build_window: the check (repo_created_before_start, first_commit_before_start, giant_commit, fork, duplicate_repository)',
  }),
  evidence: Type.String({
    description: 'prompt_injection: the passage as submitted (up to 300 characters); build_window: a sentence with the dates, numbers, parent or other project',
  }),
  detail: Nullable(
    Type.String({
      description: 'prompt_injection: what found it (a screening pattern id, or classifier:<provider/model>); build_window: the same facts as JSON',
    }),
  ),
  status: Type.Union([Type.Literal('open'), Type.Literal('checked')]),
  note: Nullable(Type.String({ description: "the organizer's note when checked" })),
  checked_by: Nullable(Type.String()),
  checked_at: Nullable(Type.String()),
  created_at: Type.String(),
});

export const FlagUpdateBody = Type.Object(
  {
    status: Type.Union([Type.Literal('open'), Type.Literal('checked')]),
    note: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  },
  { additionalProperties: false },
);

export const EventProjectFlagParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  project_id: Type.String({ minLength: 1, maxLength: 64 }),
  flag_id: Type.String({ minLength: 1, maxLength: 64 }),
});

export const ProjectReviewsResponse = Type.Object({
  event_id: Type.String(),
  project: Type.Object({
    id: Type.String(),
    project_name: Type.String(),
    name: Type.String(),
    team_name: Type.String(),
    track_id: Nullable(Type.String()),
    description: Nullable(Type.String()),
    description_html: Type.String({ description: 'the description rendered from Markdown and sanitised' }),
    github_url: Type.String(),
    project_website: Nullable(Type.String()),
    demo_video_url: Nullable(Type.String()),
    demo_url: Nullable(Type.String()),
    team_size: Nullable(Type.Integer()),
    review_status: ProjectReviewStatusSchema,
    judged: Type.Boolean({ description: "false when the team's registration is no longer approved: the project is out of the ranking" }),
    submitted_at: Type.String(),
    updated_at: Type.String(),
  }),
  dimensions: Type.Array(Type.Object({ name: Type.String(), weight: Type.Number() })),
  standing: Type.Object(
    {
      score: Nullable(Type.Number({ description: 'the weighted score as the leaderboard computes it; null while nobody has scored the project' })),
      scores_by_model: Type.Record(Type.String(), Type.Number()),
      scores_by_dimension: Type.Record(Type.String(), Type.Number()),
    },
    { description: "the project's current score line, computed from the reviews below with the leaderboard's arithmetic" },
  ),
  ai_reviews: Type.Array(ProjectAiReviewSchema, { description: "one per model of the event, in the event's model order (none before judging starts)" }),
  human_reviews: Type.Array(ProjectHumanReviewSchema, { description: 'one per human reviewer who reviewed the project, earliest first' }),
  flags: Type.Array(ProjectFlagSchema, {
    description: 'what screening and the build-window checks found, oldest first; an organizer marks each checked',
  }),
});

export const ModelsResponse = Type.Object({
  providers: Type.Array(
    Type.Object({
      name: Type.String({ description: 'the provider part of a model id (`openai` in openai/gpt-4o-mini)' }),
      kind: Type.Union([Type.Literal('openai-compatible'), Type.Literal('anthropic')], { description: 'the wire protocol the server speaks to it' }),
      model_pattern: Type.String({ description: 'how an event names one of its models: <provider>/<model>' }),
      example: Type.String({ description: 'an example model id (any model the provider serves works)' }),
    }),
    { description: 'the providers this server is configured for, by name; empty: no AI reviews (only human reviewers score)' },
  ),
  accepts_unconfigured_models: Type.Boolean({
    description:
      'true when the operator let events name models of other providers (AI_ACCEPT_UNCONFIGURED_MODELS); false: they are refused with 422 model_not_configured',
  }),
  note: Type.String(),
});
