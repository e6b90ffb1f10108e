import { useInfiniteQuery } from '@tanstack/react-query';
import { EventCover, EventLogo } from '../../ui/event-images';
import { Link, useSearch } from 'wouter';
import { useT } from '../../i18n';
import { apiPage, type Fields, type Item, type Page } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { useNow } from '../../lib/now';
import { useSession } from '../../lib/session';
import { Button, StatusBadge, useTitle } from '../../ui/controls';
import { EmptyState, ErrorState, Loading } from '../../ui/states';
import { excerpt, isStatusFilter, STATUS_FILTERS, type StatusFilter } from './logic';
import { messages } from './messages';
import { useSite } from '../../lib/site';
import './public.css';

const FIELD_NAMES = [
  'id',
  'name',
  'description_text',
  'status',
  'registration_deadline',
  'submission_deadline',
  'result_announced_at',
  'tracks',
  'cover_url',
  'logo_url',
] as const;
const FIELDS = FIELD_NAMES.join(',');
export type EventSummary = Fields<Item<'/events'>, (typeof FIELD_NAMES)[number]>;
const PAGE_SIZE = 12;

function useFilter(): StatusFilter {
  const value = new URLSearchParams(useSearch()).get('status');
  return isStatusFilter(value) ? value : 'all';
}

export default function HomePage() {
  const { t } = useT('public', messages);
  const { user } = useSession();
  const site = useSite();
  const origin = (site.data?.public_url ?? window.location.origin).replace(/\/+$/, '');
  useTitle(t('home.title'));
  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <div className="hero-text">
          <h1 id="hero-title">{t('home.heroTitle')}</h1>
          <p className="hero-lead">{t('home.heroText')}</p>
          <div className="row">
            <a className="btn btn-primary" href="#hackathons">
              {t('home.browse')}
            </a>
            {user ? null : (
              <Link className="btn btn-secondary" href="/signup">
                {t('home.signUp')}
              </Link>
            )}
          </div>
        </div>
        <aside className="hero-agents" aria-labelledby="agents-title">
          <h2 id="agents-title">{t('home.agentsTitle')}</h2>
          <p>{t('home.agentsText')}</p>
          <pre className="hero-code">
            <code>curl -sS {origin}/api/v1/skill.md</code>
          </pre>
          <p className="row">
            <a href="/api/v1/skill.md">{t('home.skillLink')}</a>
            <span aria-hidden="true">·</span>
            <a href="/docs">{t('home.docsLink')}</a>
          </p>
        </aside>
      </section>
      <EventList />
    </div>
  );
}

function FilterNav({ current }: { current: StatusFilter }) {
  const { t } = useT('public', messages);
  return (
    <nav className="tabs" aria-label={t('home.filterLabel')}>
      <ul>
        {(Object.keys(STATUS_FILTERS) as StatusFilter[]).map((f) => (
          <li key={f}>
            <Link
              href={f === 'all' ? '/' : `/?status=${f}`}
              className={f === current ? 'tab tab-active' : 'tab'}
              aria-current={f === current ? 'page' : undefined}
            >
              {t(`home.filters.${f}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function EventList() {
  const { t } = useT('public', messages);
  const filter = useFilter();
  const query = useInfiniteQuery({
    queryKey: ['public-events', filter],
    queryFn: ({ pageParam, signal }) =>
      apiPage('/events', { query: { status: STATUS_FILTERS[filter], fields: FIELDS, limit: PAGE_SIZE, cursor: pageParam }, signal }) as Promise<
        Page<EventSummary>
      >,
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
  const events = query.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section id="hackathons" className="event-list" aria-labelledby="list-title">
      <h2 id="list-title">{t('home.listTitle')}</h2>
      <FilterNav current={filter} />
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : events.length === 0 ? (
        <EmptyState title={t(`home.empty.${filter}`)}>{filter === 'all' ? null : t('home.emptyHint')}</EmptyState>
      ) : (
        <>
          <p className="muted small" aria-live="polite">
            {t('home.showing', { count: events.length })}
          </p>
          <ul className="grid event-cards">
            {events.map((e) => (
              <li key={e.id}>
                <EventCard event={e} />
              </li>
            ))}
          </ul>
          {query.hasNextPage ? (
            <div className="load-more">
              <Button variant="secondary" busy={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                {t('actions.loadMore', { ns: 'common' })}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

function EventCard({ event }: { event: EventSummary }) {
  const { t } = useT('public', messages);
  const f = useFormat();
  const now = useNow();
  const when = (iso: string) => (
    <>
      <time dateTime={iso}>{f.dateTime(iso)}</time> <span className="muted">({f.relative(iso, now)})</span>
    </>
  );
  const showRegistration = event.status === 'open';
  const showSubmission = event.status === 'open' || event.status === 'active';
  return (
    <article className={event.cover_url ? 'card event-card event-card-with-cover' : 'card event-card'}>
      <EventCover url={event.cover_url} className="event-card-cover" />
      <div className="spread">
        <StatusBadge status={event.status} />
        <span className="muted small">{event.tracks.length > 0 ? t('home.tracks', { count: event.tracks.length }) : t('home.noTracks')}</span>
      </div>
      <h3 className="event-card-title">
        <EventLogo url={event.logo_url} className="event-card-logo" />
        <Link href={`/hackathons/${event.id}`}>{event.name}</Link>
      </h3>
      {event.description_text ? <p className="muted event-card-text">{excerpt(event.description_text, 160)}</p> : null}
      <dl className="facts small">
        {showRegistration ? (
          <>
            <dt>{t('home.registerBy')}</dt>
            <dd>{when(event.registration_deadline)}</dd>
          </>
        ) : null}
        {showSubmission ? (
          <>
            <dt>{t('home.submitBy')}</dt>
            <dd>{when(event.submission_deadline)}</dd>
          </>
        ) : null}
        {!showSubmission && event.result_announced_at ? (
          <>
            <dt>{t('home.resultsOn')}</dt>
            <dd>
              <time dateTime={event.result_announced_at}>{f.date(event.result_announced_at)}</time>
            </dd>
          </>
        ) : null}
        {!showSubmission && !event.result_announced_at ? (
          <>
            <dt>{t('home.submitBy')}</dt>
            <dd>
              <time dateTime={event.submission_deadline}>{f.date(event.submission_deadline)}</time>
            </dd>
          </>
        ) : null}
      </dl>
      {event.status === 'ended' ? (
        <p className="event-card-actions">
          <Link href={`/hackathons/${event.id}/result`} aria-label={`${t('home.results')}: ${event.name}`}>
            {t('home.results')}
          </Link>
        </p>
      ) : null}
    </article>
  );
}
