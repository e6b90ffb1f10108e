import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useT } from '../../i18n';
import { get } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { PageHeader, StatusBadge } from '../../ui/controls';
import { EmptyState, ErrorState, Loading } from '../../ui/states';
import { messages } from './messages';
import type { ReviewEvent } from './reviewer-data';
import './reviewer.css';

export default function ReviewEventsPage() {
  const { t } = useT('reviewer', messages);
  const events = useQuery({ queryKey: ['me', 'review-events'], queryFn: () => get('/me/review-events') });
  return (
    <div className="stack">
      <PageHeader title={t('events.title')} subtitle={t('events.subtitle')} />
      {events.isPending ? (
        <Loading />
      ) : events.isError ? (
        <ErrorState error={events.error} onRetry={() => void events.refetch()} />
      ) : events.data.length === 0 ? (
        <EmptyState title={t('events.emptyTitle')}>
          <p>{t('events.empty')}</p>
        </EmptyState>
      ) : (
        <ul className="grid review-cards">
          {events.data.map((e) => (
            <li key={e.event_id}>
              <EventCard event={e} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function EventCard({ event: e }: { event: ReviewEvent }) {
  const { t } = useT('reviewer', messages);
  const f = useFormat();
  const id = `progress-${e.event_id}`;
  const done = e.projects > 0 && e.reviewed >= e.projects;
  return (
    <article className="card review-card">
      <div className="spread">
        <h2 className="review-card-title">
          <Link href={`/reviews/${encodeURIComponent(e.event_id)}`}>{e.event_name}</Link>
        </h2>
        <StatusBadge status={e.status} />
      </div>
      <p className="muted small">{t('events.deadline', { when: f.dateTime(e.submission_deadline) })}</p>
      {e.projects > 0 ? (
        <div className="progress-block">
          <p id={id} className={done ? 'progress-text progress-done' : 'progress-text'}>
            {t('events.progress', { reviewed: f.number(e.reviewed, 0), projects: f.number(e.projects, 0) })}
          </p>
          <progress max={e.projects} value={Math.min(e.reviewed, e.projects)} aria-labelledby={id} />
        </div>
      ) : (
        <p className="muted">{t('events.noProjects')}</p>
      )}
      <p>
        <Link href={`/reviews/${encodeURIComponent(e.event_id)}`} className="btn btn-secondary btn-small">
          {t('events.open')}
        </Link>
      </p>
    </article>
  );
}
