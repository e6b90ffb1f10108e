import type { PublicEvent } from '../shared/event-data';
import type { Team } from './team-api';
import { TeamResultView } from './team-result';

/** The team's own result on its team page once the results are out: rank, score, per-dimension scores and released feedback. */
export function TeamResultSlot({ event, team }: { event: PublicEvent; team: Team }) {
  if (!team.result) return null;
  return <TeamResultView result={team.result} dimensions={event.dimensions} tracks={event.tracks} />;
}
