import type { FieldError } from '../core/errors.js';
import type { Dimension } from '../events/event-config.js';

export const SCORE_MIN = 0;
export const SCORE_MAX = 10;
export const COMMENT_MAX = 10_000;

/**
 * A human review's scores against the event's dimensions: every dimension present, each a number
 * from 0 to 10, and no name the event does not have. Errors name the field as `scores.<dimension>`.
 * The value lists the scores in the event's dimension order.
 */
export function validateScores(scores: Record<string, unknown>, dimensions: readonly Dimension[]): { value: Record<string, number>; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const names = dimensions.map((d) => d.name);
  const known = new Set(names);
  const entries: [string, number][] = [];
  for (const name of names) {
    const field = `scores.${name}`;
    if (!Object.prototype.hasOwnProperty.call(scores, name)) {
      errors.push({ field, message: 'is required' });
      continue;
    }
    const v = scores[name];
    if (typeof v !== 'number' || !Number.isFinite(v)) errors.push({ field, message: 'must be a number' });
    else if (v < SCORE_MIN || v > SCORE_MAX) errors.push({ field, message: `must be from ${SCORE_MIN} to ${SCORE_MAX}` });
    else entries.push([name, v]);
  }
  for (const key of Object.keys(scores)) {
    if (!known.has(key)) {
      errors.push({ field: `scores.${key}`, message: `is not a dimension of this event (${names.join(', ')})` });
    }
  }
  return { value: Object.fromEntries(entries), errors };
}
