import { useMemo } from 'react';
import { Link } from 'wouter';
import { useDetailFormat as useFormat } from './detail-format';
import { EmptyState, ErrorState, Loading } from '../../ui/states';
import type { TabProps } from './detail-types';
import { LiveNote, LoadMore, ProjectLinks, trackName, useOrganizerT, usePagedList } from './detail-shared';
import { projectReviewsHref } from './project-links';

export default function ProjectsTab({ event }: TabProps) {
  const { t } = useOrganizerT();
  const fmt = useFormat();
  const list = usePagedList(event.id, 'projects', '/events/{id}/projects');
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  if (list.isPending) return <Loading />;
  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  return (
    <div className="stack">
      <LiveNote event={event} />
      {rows.length === 0 ? (
        <EmptyState title={t('projects.empty')} />
      ) : (
        <ul className="detail-list" aria-label={t('detail.tabs.projects')}>
          {rows.map((p) => (
            <li key={p.id} className="detail-item">
              <div className="detail-item-head">
                <div className="detail-item-title">
                  <Link href={projectReviewsHref(event.id, p.id)} className="detail-project-link">
                    <strong>{p.project_name}</strong>
                  </Link>{' '}
                  <span className={`badge badge-review-${p.review_status}`}>{t(`projects.reviewStatus.${p.review_status}`)}</span>
                  {p.open_flags > 0 ? (
                    <>
                      {' '}
                      <Link href={projectReviewsHref(event.id, p.id)} className="badge badge-pending" title={t('projects.openFlagsHint')}>
                        {t('projects.openFlags', { count: p.open_flags })}
                      </Link>
                    </>
                  ) : null}
                  <div className="small muted">
                    {t('projects.team')}: {p.team_name}
                    {event.tracks.length > 0 ? <> · {trackName(event, p.track_id, t('detail.noTrack'))}</> : null}
                    {p.team_size ? (
                      <>
                        {' '}
                        · {t('projects.teamSize')}: {fmt.number(p.team_size)}
                      </>
                    ) : null}
                  </div>
                  <div className="small muted">
                    {t('projects.submitted')} {fmt.dateTime(p.submitted_at)} · {t('projects.updated')} {fmt.dateTime(p.updated_at)}
                  </div>
                </div>
              </div>
              <ProjectLinks project={p} />
            </li>
          ))}
        </ul>
      )}
      <LoadMore query={list} />
    </div>
  );
}
