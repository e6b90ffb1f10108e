import type { Executor } from '../core/db/index.js';
import type { EventRecord } from '../events/events-model.js';
import type { TeamResult } from '../registrations/team-result-schema.js';
import { MAX_SCORE, MIN_SCORE } from './ranking.js';
import * as repo from './results-repo.js';

/**
 * A team's own result, read from the frozen snapshot of the published ranking (its entry, found by
 * the team's project) and, when the organizer released the feedback, from the project's succeeded
 * reviews. What identifies a reviewer never leaves this function: not the human reviewer's id, name
 * or address, not the model's identifier (only `source`: human or model).
 */
export async function teamResult(
  db: Executor,
  event: Pick<EventRecord, 'id' | 'dimensions' | 'feedback_released' | 'result_announced_at'>,
  registration: { id: string; track_id: string | null },
): Promise<TeamResult | null> {
  // Publication stamps the event in the same transaction as the result: without the stamp, there is no result to read.
  if (event.result_announced_at === null) return null;
  const publishedAt = await repo.findPublishedAt(db, event.id);
  if (publishedAt === undefined) return null;
  const [project, count] = await repo.teamProjectAndEntryCount(db, event.id, registration.id);
  const entry = project ? await repo.resultEntryOf(db, event.id, project.id) : undefined;
  // The stored tail is the entry's JSON after `{"rank":N` (results-service.ts, entryTail).
  const numbers = entry
    ? (JSON.parse(`{${entry.entry_tail.slice(1)}`) as { score: number; scores_by_dimension: Record<string, number>; track_prize?: string | null })
    : null;
  return {
    published_at: publishedAt,
    rank: entry ? Number(entry.rank) : null,
    ranked_teams: Number(count.n),
    score: numbers ? numbers.score : null,
    track_id: entry ? entry.track_id : (project?.track_id ?? registration.track_id),
    track_rank: entry && entry.track_rank !== null ? Number(entry.track_rank) : null,
    // Frozen with the entry at publication (an entry published before prizes were stored has none).
    track_prize: numbers?.track_prize ?? null,
    scores_by_dimension: numbers ? numbers.scores_by_dimension : {},
    feedback: event.feedback_released ? (project ? await feedbackOf(db, event, project.id) : []) : null,
  };
}

/**
 * The project's succeeded reviews, people's first, each with its scores for the event's dimensions
 * (names as the event spells them; anything else a review holds is left out) and its comment or
 * summary. Failed and unfinished reviews are not feedback.
 */
async function feedbackOf(db: Executor, event: Pick<EventRecord, 'dimensions'>, projectId: string): Promise<NonNullable<TeamResult['feedback']>> {
  const rows = await repo.succeededReviewsOf(db, projectId);
  const names = new Map<string, string>();
  for (const d of event.dimensions) names.set(d.name.trim().toLowerCase(), d.name);
  const out: NonNullable<TeamResult['feedback']> = [];
  for (const r of rows) {
    // Null prototype: a dimension named like an Object member stays an ordinary key.
    const scores = Object.create(null) as Record<string, number>;
    let parsed: unknown = null;
    try {
      parsed = r.scores === null ? null : JSON.parse(r.scores);
    } catch {
      parsed = null;
    }
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
        const name = names.get(key.trim().toLowerCase());
        if (name === undefined || Object.hasOwn(scores, name)) continue;
        if (typeof value !== 'number' || !Number.isFinite(value) || value < MIN_SCORE || value > MAX_SCORE) continue;
        scores[name] = value;
      }
    }
    const comment = r.summary?.trim() ? r.summary : null;
    out.push({ source: r.reviewer_kind === 'human' ? 'human' : 'model', scores, comment });
  }
  return out;
}
