import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem, apiPage, get, type Fields, type Item, type Page } from '../../lib/api';
import { browserTimeZone, useFormat } from '../../lib/format';
import { useNow } from '../../lib/now';
import { Button, PageHeader, StatusBadge } from '../../ui/controls';
import { Field } from '../../ui/form';
import { EmptyState, ErrorState, Loading } from '../../ui/states';
import { formatDateTime } from './event-form-time';
import { formMessages } from './form-messages';
import './events-list.css';

const STATUSES = ['draft', 'open', 'active', 'judging', 'ended', 'cancelled'] as const;
/** "Updates automatically": the list and its counts are asked again this often. */
const POLL_MS = 15_000;
const FIELD_NAMES = ['id', 'name', 'status', 'registration_deadline', 'submission_deadline', 'result_announced_at', 'created_at'] as const;
const FIELDS = FIELD_NAMES.join(',');
type EventItem = Fields<Item<'/events'>, (typeof FIELD_NAMES)[number]>;

export default function OrganizerEventsPage() {
  const { t } = useT('organizer-form', formMessages);
  const common = useT().t;
  const [status, setStatus] = useState('');
  const events = useInfiniteQuery({
    queryKey: ['events', 'mine', status],
    queryFn: ({ pageParam }) => apiPage('/events', { query: { mine: true, status, limit: 24, fields: FIELDS, cursor: pageParam } }) as Promise<Page<EventItem>>,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
    refetchInterval: POLL_MS,
  });
  const items = events.data?.pages.flatMap((p) => p.items) ?? [];
  const newButton = (
    <Link href="/events/new" className="btn btn-primary">
      {t('list.newEvent')}
    </Link>
  );

  let body;
  if (events.isPending) body = <Loading />;
  else if (events.isError && !events.data) body = <ErrorState error={events.error} onRetry={() => void events.refetch()} />;
  else if (items.length === 0 && !status) body = <Onboarding />;
  else if (items.length === 0) {
    body = (
      <EmptyState
        title={t('list.noMatch')}
        action={
          <Button variant="secondary" onClick={() => setStatus('')}>
            {t('list.showAll')}
          </Button>
        }
      />
    );
  } else {
    body = (
      <>
        <ul className="events-list">
          {items.map((e) => (
            <EventCard key={e.id} event={e} />
          ))}
        </ul>
        {events.hasNextPage ? (
          <div className="events-list-more">
            <Button variant="secondary" busy={events.isFetchingNextPage} onClick={() => void events.fetchNextPage()}>
              {common('actions.loadMore')}
            </Button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <>
      <PageHeader title={t('list.title')} subtitle={t('list.subtitle')} actions={newButton} />
      {items.length > 0 || status ? (
        <div className="events-list-toolbar">
          <Field label={t('list.filterLabel')}>
            <select value={status} onChange={(e) => setStatus(e.target.value)}>
              <option value="">{t('list.allStatuses')}</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {common(`eventStatus.${s}`)}
                </option>
              ))}
            </select>
          </Field>
          <p className="events-list-live" aria-live="off">
            {common('states.updatedLive')} · {t('list.timeZoneNote', { zone: browserTimeZone() })}
          </p>
        </div>
      ) : null}
      {body}
    </>
  );
}

function EventCard({ event }: { event: EventItem }) {
  const { t } = useT('organizer-form', formMessages);
  const fmt = useFormat();
  const zone = browserTimeZone();
  const headingId = `event-${event.id}`;
  const now = useNow();
  const deadline = (iso: string) => (
    <>
      <time dateTime={iso}>{formatDateTime(fmt.locale, iso, zone)}</time>{' '}
      {Date.parse(iso) > now ? <span className="events-list-rel">({fmt.relative(iso)})</span> : null}
    </>
  );
  return (
    <li className="card" aria-labelledby={headingId}>
      <div className="events-list-head">
        <h2 id={headingId}>
          <Link href={`/events/${event.id}`}>{event.name}</Link>
        </h2>
        <StatusBadge status={event.status} />
      </div>
      <dl className="facts">
        <dt>{t('list.registrationCloses')}</dt>
        <dd>{deadline(event.registration_deadline)}</dd>
        <dt>{t('list.submissionCloses')}</dt>
        <dd>{deadline(event.submission_deadline)}</dd>
      </dl>
      {event.status === 'draft' ? null : <Counts eventId={event.id} final={event.status === 'ended' || event.status === 'cancelled'} />}
      <div className="events-list-actions">
        <Link href={`/events/${event.id}`} className="btn btn-secondary btn-small" aria-describedby={headingId}>
          {t('list.manage')}
        </Link>
        {event.status === 'ended' || event.status === 'cancelled' ? null : (
          <Link href={`/events/${event.id}/edit`} className="btn btn-secondary btn-small" aria-describedby={headingId}>
            {t('list.edit')}
          </Link>
        )}
      </div>
    </li>
  );
}

/**
 * Live counts from GET /events/:id/stats; hidden when the server does not have that route (404) or
 * fails. A final (ended or cancelled) event's counts do not move: asked once, not polled.
 */
function Counts({ eventId, final }: { eventId: string; final: boolean }) {
  const { t } = useT('organizer-form', formMessages);
  const fmt = useFormat();
  const stats = useQuery({
    queryKey: ['events', eventId, 'stats'],
    queryFn: () => get('/events/{id}/stats', { path: { id: eventId } }),
    refetchInterval: (q) => (final || (q.state.error instanceof ApiProblem && q.state.error.status === 404) ? false : POLL_MS),
    retry: false,
  });
  if (!stats.data) return null;
  const counts = [
    [t('list.pending'), stats.data.registrations.pending],
    [t('list.approved'), stats.data.registrations.approved],
    [t('list.projects'), stats.data.projects],
  ] as const;
  return (
    <ul className="events-list-counts" aria-label={t('list.countsLabel')}>
      {counts.map(([label, n]) => (
        <li key={label}>
          <strong>{fmt.number(n, 0)}</strong>
          <span>{label}</span>
        </li>
      ))}
    </ul>
  );
}

/** A new organizer's first view: the five steps of an event, and that agents can do it all too. */
function Onboarding() {
  const { t } = useT('organizer-form', formMessages);
  return (
    <section className="card state state-empty" aria-labelledby="events-empty-title">
      <h2 id="events-empty-title" className="state-title">
        {t('list.emptyTitle')}
      </h2>
      <p>{t('list.emptyIntro')}</p>
      <ol className="events-list-steps">
        <li>{t('list.step1')}</li>
        <li>{t('list.step2')}</li>
        <li>{t('list.step3')}</li>
        <li>{t('list.step4')}</li>
        <li>{t('list.step5')}</li>
      </ol>
      <p>
        {t('list.agents')} <a href="/docs">{t('list.apiLink')}</a>
      </p>
      <div className="state-action">
        <Link href="/events/new" className="btn btn-primary">
          {t('list.createFirst')}
        </Link>
      </div>
    </section>
  );
}
