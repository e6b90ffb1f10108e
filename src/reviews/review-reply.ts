import type { Dimension } from '../events/event-config.js';

/**
 * The one reply shape a model may give (contract "AI review protocol"):
 * `{"scores": {<every dimension name>: number 0..10}, "summary": string}` and nothing else.
 * Checking it is pure: a reply either becomes exactly these numbers or is rejected with a reason;
 * nothing is ever rounded, clamped, defaulted or guessed.
 */
export const SCORE_MIN = 0;
export const SCORE_MAX = 10;

export interface ReviewVerdict {
  scores: Record<string, number>;
  summary: string;
}

export type ReplyCheck = { ok: true; value: ReviewVerdict } | { ok: false; reason: string };

/**
 * The JSON Schema sent to the provider. OpenAI's strict structured outputs need every property
 * listed in `required` and `additionalProperties: false` on every object; both are also what we
 * enforce ourselves. `withRange: false` leaves out minimum/maximum for providers that refuse numeric
 * constraints (the range is then stated in the description and still checked here).
 */
export function reviewReplySchema(dimensions: readonly Dimension[], opts: { withRange?: boolean } = {}): Record<string, unknown> {
  const withRange = opts.withRange ?? true;
  // Dimension names are keys here: a null prototype keeps any name an ordinary property.
  const scoreProps = Object.create(null) as Record<string, unknown>;
  for (const d of dimensions) {
    scoreProps[d.name] = {
      type: 'number',
      description: `Score for "${d.name}" from ${SCORE_MIN} to ${SCORE_MAX}`,
      ...(withRange ? { minimum: SCORE_MIN, maximum: SCORE_MAX } : {}),
    };
  }
  return {
    type: 'object',
    additionalProperties: false,
    required: ['scores', 'summary'],
    properties: {
      scores: {
        type: 'object',
        additionalProperties: false,
        required: dimensions.map((d) => d.name),
        properties: scoreProps,
      },
      summary: { type: 'string', description: 'A short justification of the scores (2 to 5 sentences)' },
    },
  };
}

const clip = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * Validates a model's reply. `raw` is the reply text (parsed as JSON here) or an already-parsed
 * value (Anthropic's tool input). Decisions where the contract is silent:
 * - the text must be one JSON value and nothing else (no prose, no Markdown fence around it);
 * - extra top-level members and scores for dimensions the event does not have are refused, since
 *   the reply must be exactly the requested object and a stray name usually means a misread rubric;
 * - a score must be a JSON number (not "7"), finite, within 0..10 inclusive; fractions are kept;
 * - `summary` must be a string (it may be empty).
 */
export function checkReviewReply(raw: unknown, dimensions: readonly Dimension[]): ReplyCheck {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    const text = raw.trim();
    if (!text) return { ok: false, reason: 'invalid reply: empty' };
    try {
      value = JSON.parse(text);
    } catch {
      return { ok: false, reason: `invalid reply: not JSON (${JSON.stringify(clip(text, 60))})` };
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: 'invalid reply: not a JSON object' };
  }
  const obj = value as Record<string, unknown>;
  const extra = Object.keys(obj).filter((k) => k !== 'scores' && k !== 'summary');
  if (extra.length) return { ok: false, reason: `invalid reply: unexpected member ${JSON.stringify(clip(extra[0]!, 40))}` };
  const scores = obj.scores;
  if (scores === null || typeof scores !== 'object' || Array.isArray(scores)) {
    return { ok: false, reason: 'invalid reply: "scores" is missing or not an object' };
  }
  if (typeof obj.summary !== 'string') return { ok: false, reason: 'invalid reply: "summary" is missing or not a string' };

  const given = scores as Record<string, unknown>;
  const known = new Set(dimensions.map((d) => d.name));
  const unknown = Object.keys(given).filter((k) => !known.has(k));
  if (unknown.length) return { ok: false, reason: `invalid reply: score for unknown dimension ${JSON.stringify(clip(unknown[0]!, 40))}` };

  const out = Object.create(null) as Record<string, number>;
  for (const d of dimensions) {
    if (!Object.prototype.hasOwnProperty.call(given, d.name)) {
      return { ok: false, reason: `invalid reply: missing score for dimension "${d.name}"` };
    }
    const v = given[d.name];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      return { ok: false, reason: `invalid reply: score for "${d.name}" is not a number (${clip(JSON.stringify(v) ?? String(v), 30)})` };
    }
    if (v < SCORE_MIN || v > SCORE_MAX) {
      return { ok: false, reason: `invalid reply: score for "${d.name}" is ${v}, outside ${SCORE_MIN}..${SCORE_MAX}` };
    }
    out[d.name] = v;
  }
  return { ok: true, value: { scores: out, summary: obj.summary } };
}
