/**
 * The one waiting policy of the API: how long a long-poll may hold a request, and how often a
 * client that cannot long-poll should ask again. skill.md, the problem pages, the OpenAPI schema's
 * `maximum`, the MCP tools and the served scripts all take their numbers from here.
 */

/**
 * The longest `?wait=` long-poll (and MCP `wait`), in seconds. It ends well before the official MCP
 * SDK clients' default request timeout (60 s) and the common 60 s proxy idle timeouts, so a wait
 * always comes back as an answer rather than a timeout. The operator's `MAX_WAIT_SECONDS` may lower
 * it, never raise it.
 */
export const LONG_POLL_MAX_SECONDS = 45;

/** The default request timeout of the official MCP SDK clients, which every wait must end before. */
export const MCP_CLIENT_DEFAULT_TIMEOUT_SECONDS = 60;

/** The default of `MAX_WAIT_SECONDS`: the longest wait the policy allows. */
export const DEFAULT_MAX_WAIT_SECONDS = LONG_POLL_MAX_SECONDS;

/**
 * The polling cadence, for anything there is no long-poll for (and between long-polls that keep
 * timing out): first pause `POLL_MIN_SECONDS`, doubled after each unchanged answer, at most
 * `POLL_MAX_SECONDS`. A `Retry-After` header, where the server sends one, comes first.
 */
export const POLL_MIN_SECONDS = 30;
export const POLL_MAX_SECONDS = 300;

/** The pause before poll number `attempt` (0-based) by the cadence above. */
export function pollDelaySeconds(attempt: number): number {
  if (!Number.isFinite(attempt) || attempt <= 0) return POLL_MIN_SECONDS;
  return Math.min(POLL_MAX_SECONDS, POLL_MIN_SECONDS * 2 ** Math.min(attempt, 30));
}

/** The wait a request gets: what it asked for, within the operator's cap (itself within the policy). */
export function effectiveWaitSeconds(requested: number | undefined, operatorMaxSeconds: number): number {
  const cap = Math.min(Math.max(0, operatorMaxSeconds), LONG_POLL_MAX_SECONDS);
  return Math.min(Math.max(0, requested ?? 0), cap);
}

/**
 * `Retry-After` of `results_not_published`, by the event's status: results come only after
 * judging, by an organizer's hand, so a client asks at the slow end of the cadence. A cancelled
 * event never publishes: no Retry-After (null), the client stops.
 */
export function resultsRetryAfterSeconds(eventStatus: string): number | null {
  return eventStatus === 'cancelled' ? null : POLL_MAX_SECONDS;
}

/** The cadence in one sentence, for skill.md, problem pages and tool descriptions. */
export const POLL_CADENCE_TEXT = `wait ${POLL_MIN_SECONDS} s, doubling after each unchanged answer up to ${POLL_MAX_SECONDS / 60} min, and honour Retry-After where sent`;
