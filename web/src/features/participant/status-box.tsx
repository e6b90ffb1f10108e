import { Link } from 'wouter';
import { useT } from '../../i18n';
import { browserTimeZone, useFormat } from '../../lib/format';
import { useNow } from '../../lib/now';
import { StatusBadge } from '../../ui/controls';
import type { PublicEvent } from '../shared/event-data';
import { submissionsClosed } from './data';
import { messages } from './messages';
import './participant.css';

/** The facts a status box needs: the registration's status and reason, and whether a project is in. */
export interface TeamStatus {
  team_name: string;
  status: string;
  reason: string | null;
  final: boolean;
  hasProject: boolean;
  projectName: string | null;
  reapplyUntil: string | null;
}

/** One sentence per state: what the team's registration means now and what to do next. */
export function useStatusText() {
  const { t } = useT('participant', messages);
  const f = useFormat();
  return (s: TeamStatus, event: PublicEvent, now: number): string => {
    if (event.status === 'ended') return t('status.ended');
    if (event.status === 'cancelled') return t('status.cancelled');
    if (s.status === 'withdrawn') return t('status.withdrawn');
    if (s.status === 'rejected') {
      if (s.final) return t('status.rejectedFinal');
      return s.reapplyUntil ? t('status.rejectedReapply', { date: f.dateTime(s.reapplyUntil) }) : t('status.rejected');
    }
    if (s.status === 'pending') return t('status.pending');
    if (event.status === 'judging') return s.hasProject ? t('status.judging') : t('status.judgingNoProject');
    if (submissionsClosed(event, now)) return t('status.judging');
    return s.hasProject ? t('status.approvedWithProject') : t('status.approved');
  };
}

/**
 * The signed-in person's own status in one event: the same box on the event page and the team page,
 * so the two never disagree. Stays after the results are published (with a link to them).
 */
export function StatusBox({
  event,
  status,
  headingLevel = 2,
  showLinks = true,
}: {
  event: PublicEvent;
  status: TeamStatus;
  headingLevel?: 2 | 3;
  showLinks?: boolean;
}) {
  const { t } = useT('participant', messages);
  const now = useNow();
  const text = useStatusText();
  const H = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className="status-box" aria-labelledby="status-box-title">
      <div className="spread">
        <H id="status-box-title">{t('status.title', { team: status.team_name })}</H>
        <StatusBadge status={status.status} kind="registrationStatus" />
      </div>
      <p>{text(status, event, now)}</p>
      {status.status === 'rejected' && status.reason ? <p className="small">{t('status.reason', { reason: status.reason })}</p> : null}
      {status.projectName ? <p className="small">{t('status.project', { name: status.projectName })}</p> : null}
      {showLinks ? (
        <p className="row status-links">
          <Link className="btn btn-secondary btn-small" href={`/hackathons/${event.id}/team`}>
            {t('common.teamPage')}
          </Link>
          {status.status === 'approved' || status.hasProject ? (
            <Link className="btn btn-secondary btn-small" href={`/hackathons/${event.id}/project`}>
              {t('common.projectPage')}
            </Link>
          ) : null}
          {status.status === 'rejected' && status.reapplyUntil ? (
            <Link className="btn btn-primary btn-small" href={`/hackathons/${event.id}/register`}>
              {t('common.reapply')}
            </Link>
          ) : null}
          {event.status === 'ended' ? (
            <Link className="btn btn-primary btn-small" href={`/hackathons/${event.id}/result`}>
              {t('common.results')}
            </Link>
          ) : null}
        </p>
      ) : null}
    </section>
  );
}

/** The event's deadlines with what each means for the team, in the viewer's zone and (named) the event's own. */
export function NextSteps({ event }: { event: PublicEvent }) {
  const { t } = useT('participant', messages);
  const f = useFormat();
  const now = useNow();
  const zone = browserTimeZone();
  const eventZone = event.time_zone && event.time_zone !== zone ? event.time_zone : null;
  const steps = [
    { key: 'registration', at: event.registration_deadline, text: t('next.registration') },
    { key: 'submission', at: event.submission_deadline, text: t('next.submission') },
    { key: 'results', at: event.result_announced_at, text: t('next.results') },
  ];
  return (
    <section className="card" aria-labelledby="next-title">
      <h2 id="next-title">{t('next.title')}</h2>
      <ol className="next-steps">
        {steps.map((s) => {
          const past = s.at !== null && new Date(s.at).getTime() <= now;
          return (
            <li key={s.key} className={past ? 'next-past' : undefined}>
              <strong>{t(`next.${s.key}Label`)}</strong>
              {s.at ? (
                <>
                  {' '}
                  <time dateTime={s.at}>{f.dateTime(s.at, zone)}</time> <span className="muted small">({f.relative(s.at, now)})</span>
                  {eventZone ? (
                    <span className="muted small next-zone">
                      {t('next.eventZone', { zone: eventZone.replace(/_/g, ' '), time: f.dateTime(s.at, eventZone) })}
                    </span>
                  ) : null}
                </>
              ) : (
                <span className="muted"> {t('next.notYet')}</span>
              )}
              <span className="next-text small">{s.text}</span>
            </li>
          );
        })}
      </ol>
      <p className="muted small">{t('next.yourZone', { zone: zone.replace(/_/g, ' ') })}</p>
    </section>
  );
}
