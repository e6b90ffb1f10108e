import { Type } from 'typebox';
import { Nullable } from '../core/http/schemas.js';
import { DimensionSchema } from '../events/events-schemas.js';
import { COMMENT_MAX, SCORE_MAX, SCORE_MIN } from './review-input.js';

const Id = Type.String({ minLength: 1, maxLength: 64 });

export const EventReviewerParams = Type.Object({ id: Id, userId: Id });
export const EventInvitationParams = Type.Object({ id: Id, invitationId: Id });
export const EventProjectParams = Type.Object({ id: Id, pid: Id });
export const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export const InviteBody = Type.Object(
  {
    email: Type.String({ maxLength: 254, description: 'The address the invitation e-mail goes to' }),
    name: Type.Optional(Type.String({ maxLength: 100, description: "The reviewer's name (the mail's greeting; their new account's name)" })),
    language: Type.Optional(Type.Union([Type.Literal('en'), Type.Literal('zh')], { description: 'Mail language (default: yours)' })),
  },
  { additionalProperties: false },
);

export const InvitationSchema = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  email: Type.String(),
  name: Nullable(Type.String({ description: "the reviewer's name as the organizer gave it" })),
  status: Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('expired')]),
  expires_at: Type.String(),
  created_at: Type.String(),
  accepted_at: Nullable(Type.String()),
});

export const InviteResponse = Type.Object({
  ...InvitationSchema.properties,
  delivery: Type.Union([Type.Literal('smtp'), Type.Literal('outbox')], {
    description: 'smtp: sent through SMTP_URL; outbox: no SMTP configured, written to OUTBOX_DIR and the link logged',
  }),
});

export const ReviewerSchema = Type.Object({
  user_id: Type.String(),
  email: Type.String(),
  name: Nullable(Type.String({ description: "the reviewer's display name (null: none set)" })),
  added_at: Type.String(),
  reviews_count: Type.Integer(),
  open_reviews: Type.Integer({ description: 'judged projects they may review (not their own team’s) and have not reviewed yet' }),
  last_reminded_at: Nullable(Type.String({ description: 'when an organizer last reminded them (remind), null if never' })),
});

export const ReminderSchema = Type.Object({
  event_id: Type.String(),
  user_id: Type.String(),
  open_reviews: Type.Integer({ description: 'the open reviews the mail names' }),
  sent_at: Type.String(),
  next_allowed_at: Type.String({ description: 'the next reminder to this reviewer is allowed from then on (24 hours later)' }),
  mail_queued: Type.Boolean({ description: 'false when the reviewer’s account is disabled (no mail is sent; the day’s reminder is used all the same)' }),
});

export const RemindAllResponse = Type.Object({
  event_id: Type.String(),
  reminded: Type.Array(ReminderSchema, { description: 'every reviewer with open reviews who was not reminded in the last 24 hours' }),
  skipped_too_soon: Type.Array(Type.Object({ user_id: Type.String(), last_sent_at: Type.String(), next_allowed_at: Type.String() }), {
    description: 'reviewers with open reviews who were reminded less than 24 hours ago',
  }),
});

export const ReviewersResponse = Type.Object({
  event_id: Type.String(),
  reviewers: Type.Array(ReviewerSchema),
  invitations: Type.Array(InvitationSchema, { description: 'Invitations not yet accepted: pending or expired' }),
});

export const PublicInvitationSchema = Type.Object({
  event_id: Type.String(),
  event_name: Type.String(),
  email: Type.String(),
  name: Nullable(Type.String({ description: "the reviewer's name as the organizer gave it: the accept form's default display name" })),
  status: Type.Literal('pending'),
  expires_at: Type.String(),
  account_exists: Type.Boolean({ description: 'Whether the invited address already has an account (then its password signs in)' }),
});

export const AcceptBody = Type.Object(
  {
    email: Type.Optional(Type.String({ maxLength: 254, description: 'If given, must be the invited address' })),
    password: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description:
          "The existing account's password, or the new account's (at least 8 characters). Not needed with an API key of the invited address (Authorization: Bearer) or its web session",
      }),
    ),
    start_session: Type.Optional(Type.Boolean({ description: 'Web app: also sign in (sets the session cookie) and answer csrf_token' })),
    name: Type.Optional(Type.String({ maxLength: 100, description: 'A label for the API key issued (default "reviewer: <event name>")' })),
    display_name: Type.Optional(
      Type.String({
        maxLength: 100,
        description: 'Your display name, for an account without one (default: the name the organizer gave)',
      }),
    ),
    time_zone: Type.Optional(Type.String({ maxLength: 64, description: "A new account's mail time zone (IANA)" })),
    replace_key: Type.Optional(
      Type.Boolean({ description: 'Lost your review key? true revokes the review keys you hold and issues a new one (default false)' }),
    ),
  },
  { additionalProperties: false },
);

const KeyScopeSchema = Type.Literal('review', { description: 'Review-scoped: works only for the reviewer routes and invitations' });

export const AcceptResponse = Type.Object({
  event_id: Type.String(),
  event_name: Type.String(),
  user: Type.Object({ id: Type.String(), email: Type.String(), role: Type.String() }),
  account_created: Type.Boolean(),
  api_key: Nullable(
    Type.Object(
      {
        id: Type.String(),
        name: Type.String(),
        prefix: Type.String(),
        key: Type.String({ description: 'The API key itself: shown once, store it now' }),
        created_at: Type.String(),
        expires_at: Nullable(Type.String()),
        scope: KeyScopeSchema,
      },
      {
        description: 'A new review-scoped API key, for the review endpoints of every event you review; null when you already hold one (see existing_key)',
      },
    ),
  ),
  existing_key: Nullable(
    Type.Object(
      {
        id: Type.String(),
        name: Type.String(),
        prefix: Type.String({ description: 'The start of the key you hold (the key itself is never shown again)' }),
        created_at: Type.String(),
        expires_at: Nullable(Type.String()),
        scope: KeyScopeSchema,
      },
      { description: 'The review key you already hold, which now also works for this event; null when api_key is set' },
    ),
  ),
  revoked_key_ids: Type.Array(Type.String(), { description: 'Review keys revoked because replace_key was true' }),
  csrf_token: Type.Optional(Type.String({ description: 'With start_session (or a web session): the CSRF token of the session' })),
});

const Scores = Type.Record(Type.String(), Type.Number(), {
  description: `Every dimension of the event by name, each a number from ${SCORE_MIN} to ${SCORE_MAX}`,
});

export const ReviewBody = Type.Object(
  {
    scores: Scores,
    comment: Type.Optional(Nullable(Type.String({ maxLength: COMMENT_MAX }))),
  },
  { additionalProperties: false },
);

export const ReviewSchema = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  project_id: Type.String(),
  reviewer_id: Type.String(),
  scores: Type.Record(Type.String(), Type.Number()),
  comment: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

/** A flag of a project as its reviewers see it (the organizers' review page has the same, with their note). */
export const ReviewerFlagSchema = Type.Object({
  id: Type.String(),
  kind: Type.String({
    description:
      'prompt_injection: a passage of the submission addressed to the evaluator (the AI models did not see it); build_window: a finding of the build-window checks of the GitHub repository',
  }),
  source: Type.String({
    description:
      'prompt_injection: where (project.name, project.description, repository.readme); build_window: the check (repo_created_before_start, first_commit_before_start, giant_commit, fork, duplicate_repository)',
  }),
  evidence: Type.String({ description: 'the passage as submitted (up to 300 characters), or a sentence with the dates, numbers, parent or other project' }),
  detail: Nullable(Type.String({ description: 'what found it (a screening pattern id, or classifier:<provider/model>), or the same facts as JSON' })),
  status: Type.Union([Type.Literal('open'), Type.Literal('checked')], { description: 'checked: an organizer has looked at it' }),
  created_at: Type.String(),
});

export const AssignmentSchema = Type.Object({
  project_id: Type.String(),
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
  submitted_at: Type.String(),
  updated_at: Type.String(),
  my_review: Nullable(ReviewSchema),
  flags: Type.Array(ReviewerFlagSchema, {
    description: 'what screening and the build-window checks found in this project, oldest first: weigh it when you score (empty: nothing found)',
  }),
});

export const AssignmentsResponse = Type.Object({
  event: Type.Object({ id: Type.String(), name: Type.String(), status: Type.String() }),
  reviewing_open: Type.Boolean({ description: 'True while the event is judging: PUT .../review is accepted' }),
  scale: Type.Object({ min: Type.Number(), max: Type.Number() }),
  dimensions: Type.Array(DimensionSchema),
  projects: Type.Array(AssignmentSchema),
  hidden_for_conflict_of_interest: Type.Integer({ description: 'Projects left out because the reviewer is or was on that team' }),
  review_mode: Type.Union([Type.Literal('every'), Type.Literal('assigned')], {
    description: "every: every project of the event (but your own team's and declared conflicts); assigned: only the projects assigned to you",
  }),
});
