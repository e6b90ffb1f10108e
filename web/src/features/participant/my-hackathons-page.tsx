import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useT } from '../../i18n';
import { apiPage, type Item } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { useNow } from '../../lib/now';
import { Button, PageHeader, StatusBadge } from '../../ui/controls';
import { EmptyState, ErrorState, Loading } from '../../ui/states';
import { messages } from './messages';
import './participant.css';

type MyHackathon = Item<'/me/hackathons'>;

/** /me/hackathons: every event the person is in, in any part, with its status and next deadline. */
export default function MyHackathonsPage() {
  const { t } = useT('participant', messages);
  const list = useInfiniteQuery({
    queryKey: ['my-hackathons'],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => apiPage('/me/hackathons', { query: { limit: 50, cursor: pageParam }, signal }),
    getNextPageParam: (page) => page.next,
  });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section className="stack">
      <PageHeader title={t('mine.title')} subtitle={t('mine.subtitle')} />
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState
          title={t('mine.empty')}
          action={
            <Link className="btn btn-primary" href="/">
              {t('mine.browse')}
            </Link>
          }
        />
      ) : (
        <ul className="my-hackathons">
          {items.map((e) => (
            <MyHackathonCard key={e.event_id} item={e} />
          ))}
        </ul>
      )}
      {list.hasNextPage ? (
        <Button variant="secondary" busy={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {t('mine.more')}
        </Button>
      ) : null}
    </section>
  );
}

function MyHackathonCard({ item }: { item: MyHackathon }) {
  const { t } = useT('participant', messages);
  const f = useFormat();
  const now = useNow();
  const member = item.roles.includes('leader') || item.roles.includes('member');
  return (
    <li className="card my-hackathon">
      <div className="spread">
        <h2>
          <Link href={`/hackathons/${item.event_id}`}>{item.event_name}</Link>
        </h2>
        <StatusBadge status={item.status} />
      </div>
      <p className="row">
        {item.roles.map((r) => (
          <span key={r} className="badge badge-role">
            {t(`roles.${r}`)}
          </span>
        ))}
      </p>
      <dl className="facts">
        {item.team ? (
          <>
            <dt>{t('mine.team')}</dt>
            <dd>
              {item.team.team_name} <StatusBadge status={item.team.status} kind="registrationStatus" />
            </dd>
          </>
        ) : null}
        <dt>{t('mine.next')}</dt>
        <dd>
          {item.next_deadline ? (
            <>
              {t(`mine.deadline.${item.next_deadline.kind}`)}: <time dateTime={item.next_deadline.at}>{f.dateTime(item.next_deadline.at)}</time>{' '}
              <span className="muted small">({f.relative(item.next_deadline.at, now)})</span>
            </>
          ) : item.status === 'ended' ? (
            t('mine.resultsOut')
          ) : (
            <span className="muted">{t('mine.noDeadline')}</span>
          )}
        </dd>
      </dl>
      <p className="row">
        {member ? (
          <Link className="btn btn-secondary btn-small" href={`/hackathons/${item.event_id}/team`}>
            {t('common.teamPage')}
          </Link>
        ) : null}
        {member && item.team?.status === 'approved' ? (
          <Link className="btn btn-secondary btn-small" href={`/hackathons/${item.event_id}/project`}>
            {t('common.projectPage')}
          </Link>
        ) : null}
        {item.roles.includes('organizer') ? (
          <Link className="btn btn-secondary btn-small" href={`/events/${item.event_id}`}>
            {t('mine.dashboard')}
          </Link>
        ) : null}
        {item.roles.includes('reviewer') ? (
          <Link className="btn btn-secondary btn-small" href={`/reviews/${item.event_id}`}>
            {t('mine.review')}
          </Link>
        ) : null}
      </p>
    </li>
  );
}
