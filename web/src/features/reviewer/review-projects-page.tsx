import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { useT } from '../../i18n';
import { useFormat } from '../../lib/format';
import { Button, PageHeader, StatusBadge } from '../../ui/controls';
import { Checkbox } from '../../ui/form';
import { EmptyState, ErrorState, Loading } from '../../ui/states';
import { messages } from './messages';
import { assignmentsKey, assignmentsPage, useTrackNames, type Assignment } from './reviewer-data';
import { weightedTotal, weightShares, type Dimension } from './scoring';
import './reviewer.css';

export default function ReviewProjectsPage({ params }: { params: { eventId: string } }) {
  const { t } = useT('reviewer', messages);
  const common = useT();
  const f = useFormat();
  const eventId = params.eventId;
  const [onlyOpen, setOnlyOpen] = useState(false);
  const tracks = useTrackNames(eventId);
  const pages = useInfiniteQuery({
    queryKey: [...assignmentsKey(eventId), 'pages'],
    queryFn: ({ pageParam }) => assignmentsPage(eventId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  if (pages.isPending) return <Loading />;
  if (pages.isError) return <ErrorState error={pages.error} onRetry={() => void pages.refetch()} />;
  const first = pages.data.pages[0]!.body;
  const projects = pages.data.pages.flatMap((p) => p.body.projects);
  const shown = onlyOpen ? projects.filter((p) => !p.my_review) : projects;
  const reviewed = projects.filter((p) => p.my_review).length;
  return (
    <div className="stack">
      <p>
        <Link href="/reviews">
          <span aria-hidden="true">← </span>
          {t('projects.back')}
        </Link>
      </p>
      <PageHeader title={first.event.name} subtitle={t('projects.subtitle')} actions={<StatusBadge status={first.event.status} />} />
      {first.reviewing_open ? null : (
        <p className="alert alert-warn">
          {t('projects.notJudging', { status: common.t(`eventStatus.${first.event.status}`, { defaultValue: first.event.status }) })}
        </p>
      )}
      <DimensionList dimensions={first.dimensions} />
      <section aria-labelledby="projects-heading" className="stack">
        <div className="spread">
          <h2 id="projects-heading">{t('projects.heading')}</h2>
          <p className="muted" role="status">
            {t('projects.summary', { reviewed: f.number(reviewed, 0), total: f.number(projects.length, 0) })}
          </p>
        </div>
        {first.review_mode === 'assigned' ? <p className="small muted">{t('projects.assignedOnly')}</p> : null}
        {projects.length > 0 ? <Checkbox label={t('projects.filter')} checked={onlyOpen} onChange={(e) => setOnlyOpen(e.target.checked)} /> : null}
        {projects.length === 0 ? (
          <EmptyState title={t('projects.empty')} />
        ) : shown.length === 0 ? (
          <EmptyState title={t('projects.allDone')} />
        ) : (
          <ul className="project-list">
            {shown.map((p) => (
              <ProjectItem
                key={p.project_id}
                eventId={eventId}
                project={p}
                dimensions={first.dimensions}
                trackName={p.track_id ? (tracks[p.track_id] ?? p.track_id) : null}
              />
            ))}
          </ul>
        )}
        {pages.hasNextPage ? (
          <Button variant="secondary" busy={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
            {common.t('actions.loadMore')}
          </Button>
        ) : null}
      </section>
    </div>
  );
}

export function DimensionList({ dimensions }: { dimensions: Dimension[] }) {
  const { t } = useT('reviewer', messages);
  const f = useFormat();
  const shares = weightShares(dimensions);
  return (
    <section aria-labelledby="dims-heading" className="card">
      <h2 id="dims-heading">{t('projects.dimensions')}</h2>
      <ul className="dims">
        {dimensions.map((d, i) => (
          <li key={d.name} className="dim">
            <span className="dim-name">{d.name}</span>
            <span className="muted small">
              {t('projects.dimensionShare', { share: f.percent(shares[i] ?? 0, 1) })} · {t('projects.weight', { weight: f.number(d.weight) })}
            </span>
            <span className="dim-bar" style={{ width: `${Math.round((shares[i] ?? 0) * 100)}%` }} aria-hidden="true" />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ProjectItem({
  eventId,
  project: p,
  dimensions,
  trackName,
}: {
  eventId: string;
  project: Assignment;
  dimensions: Dimension[];
  trackName: string | null;
}) {
  const { t } = useT('reviewer', messages);
  const f = useFormat();
  const total = p.my_review ? weightedTotal(dimensions, p.my_review.scores) : null;
  const href = `/reviews/${encodeURIComponent(eventId)}/projects/${encodeURIComponent(p.project_id)}`;
  return (
    <li className="card project-item">
      <div className="project-meta">
        <h3>
          <Link href={href}>{p.name}</Link>
        </h3>
        <span className="muted small">
          {t('projects.team', { team: p.team_name })}
          {trackName ? ` · ${t('projects.track', { track: trackName })}` : ''}
        </span>
        {p.flags.length > 0 ? <span className="badge project-flags-badge">{t('projects.flags', { count: p.flags.length })}</span> : null}
      </div>
      <div className="project-score">
        {p.my_review ? (
          <>
            <span className="badge badge-approved">{t('projects.reviewed')}</span>
            <span className="score-value" title={t('projects.yourScore')}>
              <span className="sr-only">{t('projects.yourScore')}: </span>
              {f.number(total, 2)}
            </span>
          </>
        ) : (
          <span className="badge badge-pending">{t('projects.notReviewed')}</span>
        )}
        <Link
          href={href}
          className={`btn btn-small ${p.my_review ? 'btn-secondary' : 'btn-primary'}`}
          aria-label={t(p.my_review ? 'projects.editOf' : 'projects.reviewOf', { name: p.name })}
        >
          {t(p.my_review ? 'projects.edit' : 'projects.review')}
        </Link>
      </div>
    </li>
  );
}
