import type { PublicEvent } from '../public/event-page';
import type { Team } from './team-api';

/**
 * PLACE FOR THE TEAM'S RESULT (branch team-results, web/src/features/participant/team-result.tsx):
 * rank, score, per-dimension scores and released feedback from `team.result`. Until that lands the
 * team page shows nothing here; the public result page has the ranking.
 */
export function TeamResultSlot(_props: { event: PublicEvent; team: Team }) {
  return null;
}
