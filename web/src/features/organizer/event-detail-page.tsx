import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { Link, useParams } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem } from '../../lib/api';
import { browserTimeZone } from '../../lib/format';
import { useDetailFormat as useFormat } from './detail-format';
import { PageHeader, StatusBadge, TabNav } from '../../ui/controls';
import { ErrorState, Loading, NotFound } from '../../ui/states';
import { useEvent, useOrganizerT, useStats } from './detail-shared';
import type { TabProps } from './detail-types';
import './detail.css';

// Each tab is its own chunk: opening the overview loads none of the leaderboard's code.
const TABS: { slug: string; label: string; Component: ComponentType<TabProps> }[] = [
  { slug: 'overview', label: 'overview', Component: lazy(() => import('./detail-overview')) },
  { slug: 'registrations', label: 'registrations', Component: lazy(() => import('./detail-registrations')) },
  { slug: 'projects', label: 'projects', Component: lazy(() => import('./detail-projects')) },
  { slug: 'ai-reviews', label: 'aiReviews', Component: lazy(() => import('./detail-ai-reviews')) },
  { slug: 'reviewers', label: 'reviewers', Component: lazy(() => import('./detail-reviewers')) },
  { slug: 'leaderboard', label: 'leaderboard', Component: lazy(() => import('./detail-leaderboard')) },
  { slug: 'voting', label: 'voting', Component: lazy(() => import('./detail-voting')) },
  { slug: 'announcements', label: 'announcements', Component: lazy(() => import('./detail-announcements')) },
  { slug: 'publish', label: 'publish', Component: lazy(() => import('./detail-publish')) },
  { slug: 'audit', label: 'audit', Component: lazy(() => import('./detail-audit')) },
];

export default function EventDetailPage() {
  const params = useParams<{ id: string; tab?: string }>();
  const id = params.id ?? '';
  const slug = params.tab ?? 'overview';
  const { t } = useOrganizerT();
  const common = useT();
  const fmt = useFormat();
  const event = useEvent(id);
  useStats(id); // starts the shared stats poll for every tab
  // On a phone the tab row scrolls sideways: keep the current tab in view.
  const loaded = event.isSuccess;
  useEffect(() => {
    if (loaded) document.querySelector('.tabs [aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [slug, loaded]);

  if (event.isPending) return <Loading />;
  if (event.isError) {
    if (event.error instanceof ApiProblem && event.error.status === 404) return <NotFound />;
    return <ErrorState error={event.error} onRetry={() => void event.refetch()} />;
  }
  const ev = event.data;
  const tab = TABS.find((x) => x.slug === slug);
  if (!tab) return <NotFound />;
  const base = `/events/${encodeURIComponent(ev.id)}`;
  const tabLabel = t(`detail.tabs.${tab.label}`);

  return (
    <div className="detail">
      <PageHeader
        title={slug === 'overview' ? ev.name : `${ev.name} · ${tabLabel}`}
        actions={
          <>
            <Link href={`${base}/edit`} className="btn btn-secondary">
              {common.t('actions.edit')}
            </Link>
            <Link href={`/hackathons/${encodeURIComponent(ev.id)}`} className="btn btn-secondary">
              {t('detail.publicPage')}
            </Link>
            <a href={`/api/v1/events/${encodeURIComponent(ev.id)}/leaderboard.csv`} className="btn btn-secondary" download>
              {t('detail.downloadCsv')}
            </a>
          </>
        }
      >
        <div className="row detail-status">
          <StatusBadge status={ev.status} />
        </div>
        <dl className="facts detail-deadlines">
          <dt>{t('detail.registrationDeadline')}</dt>
          <dd>{fmt.dateTime(ev.registration_deadline)}</dd>
          <dt>{t('detail.submissionDeadline')}</dt>
          <dd>{fmt.dateTime(ev.submission_deadline)}</dd>
          {ev.result_announced_at ? (
            <>
              <dt>{t('detail.resultAnnounced')}</dt>
              <dd>{fmt.dateTime(ev.result_announced_at)}</dd>
            </>
          ) : null}
        </dl>
        <p className="small muted">{t('detail.timeZone', { zone: browserTimeZone() })}</p>
      </PageHeader>
      <TabNav
        label={t('detail.tabsLabel')}
        tabs={TABS.map((x) => ({ href: x.slug === 'overview' ? base : `${base}/${x.slug}`, label: t(`detail.tabs.${x.label}`) }))}
      />
      <section aria-label={tabLabel}>
        <Suspense fallback={<Loading />}>
          <tab.Component event={ev} />
        </Suspense>
      </section>
    </div>
  );
}
