import { Type, type Static } from 'typebox';
import { Nullable } from '../core/http/schemas.js';
import type { EventRecord } from '../events/events-model.js';

const Score = Type.Number({ minimum: 0, maximum: 10 });

/** One review as the team reads it: who wrote it is never said, only whether a person or an AI model did. */
export const TeamFeedbackSchema = Type.Object({
  source: Type.Union([Type.Literal('human'), Type.Literal('model')], { description: 'a human reviewer or an AI model (neither is named)' }),
  scores: Type.Record(Type.String(), Score, { description: "per dimension name (the event's dimensions), 0..10" }),
  comment: Nullable(Type.String({ description: "the human reviewer's comment or the model's summary" })),
});

/**
 * A team's own place in the published (frozen) result. Null before publication. `rank` is null when
 * the team is not in the ranking (no project, or not judged).
 */
export const TeamResultSchema = Type.Object(
  {
    published_at: Type.String(),
    rank: Nullable(Type.Integer({ minimum: 1, description: 'competition rank among every ranked team (1, 2, 2, 4); null: not ranked' })),
    ranked_teams: Type.Integer({ minimum: 0, description: 'how many teams the result ranks' }),
    score: Nullable(Type.Number({ minimum: 0, maximum: 10, description: 'rounded to 4 decimals; null: not ranked' })),
    track_id: Nullable(Type.String()),
    track_rank: Nullable(Type.Integer({ minimum: 1, description: "rank within the team's track (1: the track's winner); null without a track or not ranked" })),
    track_prize: Nullable(Type.String({ description: "the track's prize, when the team won its track (track_rank 1) and the track has one; null otherwise" })),
    scores_by_dimension: Type.Record(Type.String(), Score, { description: 'per dimension name, as in the published result' }),
    feedback: Nullable(
      Type.Array(TeamFeedbackSchema, {
        description: 'the reviews of the project (succeeded ones only), when the organizer released them; null: not released',
      }),
    ),
  },
  { description: "The team's result once published (null before): rank, score, per-dimension scores and, when released, the reviews" },
);

export type TeamResult = Static<typeof TeamResultSchema>;

/**
 * Computes a registration's result (the results domain provides it; the wiring passes it in). The
 * caller is already known to be on the team or an organizer of the event.
 */
export interface TeamResultSource {
  /** `event`: the registration's event when the caller has it at hand (saves reading it again). */
  teamResult(
    registration: { id: string; event_id: string; track_id: string | null },
    event?: Pick<EventRecord, 'id' | 'dimensions' | 'feedback_released' | 'result_announced_at'>,
  ): Promise<TeamResult | null>;
}
