import { Type } from 'typebox';

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

export const ResultEntries = Type.Array(ResultEntrySchema);

export const TrackQuery = Type.Object(
  {
    track_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'rank only this track (ranks recomputed within it)' })),
  },
  { additionalProperties: false },
);

export const LeaderboardQuery = Type.Object(
  {
    track_id: TrackQuery.properties.track_id,
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')], { description: 'csv: the same as leaderboard.csv' })),
  },
  { additionalProperties: false },
);

export const CsvText = Type.String({
  description:
    'text/csv: rank, project_id, project_name, team_name, track_id, score, then scores_by_model.<group> and scores_by_dimension.<name> columns',
});

export const PublishResponse = Type.Object({
  event_id: Type.String(),
  status: Type.Literal('ended'),
  result_announced_at: Type.String(),
  published_at: Type.String(),
  etag: Type.String({ description: 'the ETag GET /events/:id/result serves' }),
  result_url: Type.String(),
  entries: ResultEntries,
});

/** No body at all (not even `null`). */
export const NotModified = Type.Unsafe<void>({ description: 'Not modified: the If-None-Match tag is current; no body' });
