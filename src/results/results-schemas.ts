import { Type } from 'typebox';
import { Nullable } from '../core/http/schemas.js';

const Score = Type.Number({ minimum: 0, maximum: 10, description: 'rounded to 4 decimals' });

/** One ranked project: the entry of the leaderboard and of the published result (contract shape). */
export const ResultEntrySchema = Type.Object({
  rank: Type.Integer({ minimum: 1, description: 'competition ranking: equal scores share a rank, the next skips (1, 2, 2, 4)' }),
  project_id: Type.String(),
  project_name: Type.String(),
  team_name: Type.String(),
  track_id: Type.Union([Type.String(), Type.Null()]),
  score: Score,
  scores_by_model: Type.Record(Type.String(), Score, { description: 'per model identifier, and `human` where humans scored' }),
  scores_by_dimension: Type.Record(Type.String(), Score),
});

/** An entry of the published result: the contract's entry plus its place in its track and the prize it won. */
export const PublishedEntrySchema = Type.Object({
  ...ResultEntrySchema.properties,
  track_rank: Nullable(Type.Integer({ minimum: 1, description: "competition rank within the entry's track (1: the track's winner); null without a track" })),
  track_prize: Nullable(
    Type.String({ description: "the track's prize, when the entry won its track (track_rank 1 and scored) and the track has one; else null" }),
  ),
});

export const ResultEntries = Type.Array(PublishedEntrySchema);

const WinnerProjectSchema = Type.Object({
  rank: Type.Integer({ minimum: 1, description: 'overall rank' }),
  track_rank: Nullable(Type.Integer({ minimum: 1 })),
  project_id: Type.String(),
  project_name: Type.String(),
  team_name: Type.String(),
  track_id: Nullable(Type.String()),
  score: Score,
});

/** The winners of a published result (src/results/winners.ts). */
export const WinnersSchema = Type.Object(
  {
    tracks: Type.Array(
      Type.Object({
        track_id: Type.String(),
        track_name: Type.String(),
        prize: Nullable(Type.String({ description: "the track's prize as at publication; null: none, or nobody won the track" })),
        projects: Type.Array(WinnerProjectSchema, {
          description: 'the scored project(s) with the best rank within the track (several on a tie; none when nothing in the track was scored)',
        }),
      }),
      { description: "every track of the event, in the event's order" },
    ),
    overall: Type.Array(WinnerProjectSchema, { description: 'the overall top places (rank ≤ 3, ties included), scored projects only' }),
  },
  { description: "per track the project(s) that won it with the track's prize, and the overall top places" },
);

export const WinnersResponse = Type.Object({
  event_id: Type.String(),
  published_at: Type.String(),
  ...WinnersSchema.properties,
});

/** A leaderboard entry: the result's entry plus how far the project's reviews got. */
export const LeaderboardEntrySchema = Type.Object({
  ...ResultEntrySchema.properties,
  score_raw: Type.Number({
    minimum: 0,
    maximum: 10,
    description: "the score from the raw reviews (no normalisation); equals score while the event's normalization is none",
  }),
  score_normalized: Type.Union([Type.Number({ minimum: 0, maximum: 10 }), Type.Null()], {
    description:
      "the score after zscore normalisation (equals score while the event's normalization is zscore); null while it is none (computed only for zscore events: switch the setting to compare)",
  }),
  reviews: Type.Object(
    {
      expected: Type.Integer({ description: "AI reviews each project gets: the number of the event's models" }),
      succeeded: Type.Integer({ description: 'AI reviews that succeeded' }),
      failed: Type.Integer({ description: 'AI reviews that failed for good' }),
      pending: Type.Integer({ description: 'AI reviews queued or running' }),
      human: Type.Integer({ description: 'human reviews written' }),
    },
    { description: 'review coverage: a project with no succeeded review at all is unscored (score 0, ranked last)' },
  ),
});

export const LeaderboardEntries = Type.Array(LeaderboardEntrySchema);

const Limit = Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'entries per page' });
const Cursor = Type.String({ minLength: 1, maxLength: 512, description: 'opaque: from the Link rel="next" of the previous page' });

export const TrackQuery = Type.Object(
  {
    track_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'rank only this track (ranks recomputed within it)' })),
  },
  { additionalProperties: false },
);

export const ResultQuery = Type.Object(
  {
    track_id: TrackQuery.properties.track_id,
    limit: Limit,
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: false },
);

export const LeaderboardQuery = Type.Object(
  {
    track_id: TrackQuery.properties.track_id,
    limit: Limit,
    cursor: Type.Optional(Cursor),
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')], { description: 'csv: the same as leaderboard.csv' })),
  },
  { additionalProperties: false },
);

export const CsvText = Type.String({
  description:
    'text/csv: rank, project_id, project_name, team_name, track_id, score, score_raw, score_normalized (empty unless the event normalizes with zscore), then scores_by_model.<group> and scores_by_dimension.<name> columns, peoples_choice.rank and peoples_choice.votes (events with a vote), then track_rank (within the track) and prize (the prize of the track, for its winner)',
});

export const PublishBody = Type.Object(
  {
    force: Type.Optional(Type.Boolean({ description: 'publish even though some judged projects have no score at all, or human judging is unfinished' })),
    release_feedback: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'let every team read its reviews (scores, human comments, AI summaries; reviewers never named) with its result; switch it later with PUT results/feedback',
      }),
    ),
  },
  { additionalProperties: false },
);

/** One entry of the people's choice: projects by votes, most first (ties share a rank). */
export const PeoplesChoiceEntrySchema = Type.Object({
  rank: Type.Integer(),
  project_id: Type.String(),
  project_name: Type.String(),
  team_name: Type.String(),
  track_id: Nullable(Type.String()),
  votes: Type.Integer(),
  scope: Type.Optional(
    Nullable(
      Type.String({
        description: "the list the entry is ranked in: its track's id when the vote is per track (ranks count within the track); null event-wide",
      }),
    ),
  ),
});

export const PublishResponse = Type.Object({
  event_id: Type.String(),
  status: Type.Literal('ended'),
  result_announced_at: Type.String(),
  published_at: Type.String(),
  feedback_released: Type.Boolean({ description: 'whether the teams may read their reviews (release_feedback)' }),
  normalization: Type.Union([Type.Literal('none'), Type.Literal('zscore')], {
    description: "the event's score normalisation the published ranking was computed with (GET result sends it as the Result-Normalization header)",
  }),
  etag: Type.String({ description: 'the ETag GET /events/:id/result serves' }),
  peoples_choice: Type.Union([Type.Array(PeoplesChoiceEntrySchema), Type.Null()], {
    description: "the people's choice, counted at publication (null: the event has no vote)",
  }),
  winners: WinnersSchema,
  result_url: Type.String(),
  entries: ResultEntries,
});

/** No body at all (not even `null`). */
export const NotModified = Type.Unsafe<void>({ description: 'Not modified: the If-None-Match tag is current; no body' });

export const FeedbackReleaseBody = Type.Object(
  {
    released: Type.Boolean({ description: 'true: every team may read its reviews (reviewers unnamed) with its result; false: hidden again' }),
  },
  { additionalProperties: false },
);

export const FeedbackReleaseResponse = Type.Object({
  event_id: Type.String(),
  feedback_released: Type.Boolean(),
  updated_at: Type.String(),
});

/** How far each reviewer's scores are from the rest of the panel (GET /events/:id/leaderboard/reviewers). */
export const ReviewerOutliersResponse = Type.Object({
  event_id: Type.String(),
  thresholds: Type.Object(
    {
      mean_offset: Type.Number({ description: 'a reviewer is flagged when |mean_offset| is over this (points on the 0-10 scale)' }),
      correlation: Type.Number({ description: 'a reviewer is flagged when the correlation is below this' }),
      min_common_projects: Type.Integer({ description: 'projects shared with other reviewers a correlation needs' }),
    },
    { description: 'the fixed rules the flags follow' },
  ),
  reviewers: Type.Array(
    Type.Object({
      reviewer_kind: Type.Union([Type.Literal('human'), Type.Literal('model')]),
      reviewer_id: Type.String({ description: "the human reviewer's user id, or the model identifier (each model counts as one reviewer)" }),
      name: Nullable(Type.String({ description: "the reviewer's display name (the model identifier for a model); null if none" })),
      email: Nullable(Type.String({ description: "a human reviewer's e-mail address (organizers only); null for a model" })),
      projects: Type.Integer({ description: 'judged projects the reviewer scored' }),
      common_projects: Type.Integer({ description: 'of those, projects some other reviewer scored too: what the offset and correlation are over' }),
      mean_offset: Nullable(
        Type.Number({
          description:
            "mean over the common projects of (the reviewer's score − the other reviewers' mean score), a score being the weighted mean over the dimensions scored; null with no common project",
        }),
      ),
      correlation: Nullable(
        Type.Number({
          minimum: -1,
          maximum: 1,
          description:
            "Pearson correlation of the reviewer's scores with the other reviewers' means; null below min_common_projects or when either side does not vary",
        }),
      ),
      flagged: Type.Boolean({ description: 'far from the panel: worth a human look (never changes a score)' }),
      flags: Type.Array(Type.Union([Type.Literal('offset'), Type.Literal('correlation')]), { description: 'which rule flagged the reviewer' }),
    }),
    { description: 'flagged reviewers first, then by the size of the offset' },
  ),
});

/** GET /events/:id/result/bundle: the verifiable results bundle (src/results/result-bundle.ts; docs/api.md). */
export const ResultBundleSchema = Type.Object(
  {
    format: Type.String({ description: 'hackathon-results-bundle/1' }),
    event: Type.Object({ id: Type.String(), name: Type.String(), published_at: Type.String() }),
    rubric: Type.Object({
      dimensions: Type.Array(
        Type.Object({
          key: Type.String({ description: 'the name scores are keyed by' }),
          name: Type.String(),
          weight: Type.Number({ description: 'weights are normalised by their sum' }),
        }),
      ),
      scale: Type.Object({ min: Type.Number(), max: Type.Number() }),
      score_decimals: Type.Integer({ description: 'published numbers carry this many decimals; ranks compare at this precision' }),
    }),
    tracks: Type.Array(
      Type.Object({ id: Type.String(), name: Type.String(), prize: Type.Optional(Type.String({ description: 'absent from bundles without winners' })) }),
    ),
    normalization: Type.Union([Type.Literal('none'), Type.Literal('zscore')]),
    models: Type.Array(Type.String(), { description: 'identifiers of the models that scored' }),
    prompt_template_sha256: Nullable(Type.String({ description: 'SHA-256 (hex) of the review prompt template (docs/api.md says what is hashed)' })),
    projects: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        team_name: Type.String(),
        track_id: Nullable(Type.String()),
        first_submitted_at: Type.String({ description: 'the tie-breaker' }),
      }),
      { description: 'the ranked projects, by id' },
    ),
    scores: Type.Array(
      Type.Object({
        reviewer_kind: Type.Union([Type.Literal('model'), Type.Literal('human')]),
        reviewer: Type.String({ description: 'the model identifier, or a human reviewer\'s pseudonym "reviewer-N"' }),
        project_id: Type.String(),
        scores: Type.Record(Type.String(), Type.Unknown(), { description: 'dimension name → score, raw, as the review gave it' }),
      }),
      { description: 'every succeeded review of a ranked project' },
    ),
    flags: Type.Array(
      Type.Object({
        project_id: Type.String(),
        kind: Type.String(),
        source: Type.String(),
        status: Type.String(),
        evidence: Type.String(),
        detail: Nullable(Type.String()),
      }),
    ),
    ranking: Type.Array(ResultEntrySchema, { description: 'the ranking as published (GET /events/{id}/result)' }),
    peoples_choice: Type.Union([Type.Array(PeoplesChoiceEntrySchema), Type.Null()]),
    winners: Type.Optional(
      Type.Object(WinnersSchema.properties, {
        description: 'recomputed by the verifier from the ranking and the tracks (absent from bundles published before winners were recorded)',
      }),
    ),
    signer: Type.Optional(
      Type.Object(
        {
          key_id: Type.String({ description: 'the site key that signed (listed at keys_url)' }),
          algorithm: Type.String({ description: 'Ed25519' }),
          public_key: Type.String({ description: "raw 32-byte public key, base64url: trust it only if it is the site's key of that id" }),
          keys_url: Type.String({ description: '{site}/.well-known/hackathon-results-keys.json' }),
        },
        { description: 'absent from bundles published before signing' },
      ),
    ),
    sha256: Type.String({ description: 'SHA-256 (hex) of the canonical JSON (RFC 8785) of the bundle without this member and signature' }),
    signature: Type.Optional(
      Type.String({ description: 'Ed25519 signature (base64url) of the canonical JSON of the bundle without this member; absent before signing' }),
    ),
  },
  {
    description:
      'Everything the published ranking was computed from, frozen at publication and signed; verify with `node verify-bundle.mjs` (GET /verify-bundle.mjs) or `hackathon results verify`',
  },
);
