import { useT } from '../../i18n';
import type { PublicEvent } from '../shared/event-data';
import { useMyRegistration } from './data';
import { messages } from './messages';
import { StatusBox } from './status-box';
import { FindATeamLink } from './team-finder';

/** The event page's box for the signed-in person's own team; in none, a way to the team finder. */
export default function MyStatus({ event }: { event: PublicEvent }) {
  useT('participant', messages);
  const mine = useMyRegistration(event.id);
  const reg = mine.data;
  if (!reg) return mine.isPending || mine.isError ? null : <FindATeamLink event={event} />;
  return (
    <div className="my-status">
      <StatusBox
        event={event}
        headingLevel={2}
        status={{
          team_name: reg.team_name,
          status: reg.status,
          reason: reg.reason,
          final: reg.final,
          hasProject: reg.project !== null,
          projectName: reg.project?.project_name ?? null,
          reapplyUntil: reg.reapply_until,
        }}
      />
    </div>
  );
}
