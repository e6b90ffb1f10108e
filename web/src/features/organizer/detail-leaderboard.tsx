import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { get } from '../../lib/api';
import { useDetailFormat as useFormat } from './detail-format';
import { Field } from '../../ui/form';
import { EmptyState, ErrorState, Loading } from '../../ui/states';
import type { TabProps } from './detail-types';
import { disagreements, isScored } from './detail-leaderboard-math';
import { keys, LiveNote, LoadMore, PendingNote, pendingOf, TableWrap, trackName, useLiveInterval, useOrganizerT, usePagedList } from './detail-shared';
import { projectReviewsHref } from './project-links';

// Recharts is large: it loads only when this tab shows charts.
const ScoreCharts = lazy(() => import('./detail-charts'));

export default function LeaderboardTab({ event }: TabProps) {
  const { t } = useOrganizerT();
  const fmt = useFormat();
  const [track, setTrack] = useState('');
  const [topN, setTopN] = useState(10);
  const list = usePagedList(event.id, 'leaderboard', '/events/{id}/leaderboard', {
    track_id: track || undefined,
    limit: 100,
  });
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  const pending = pendingOf(list.data?.pages[0]);
  const disagree = useMemo(() => disagreements(rows, 10), [rows]);
  const captionId = useId();
  const interval = useLiveInterval(event.id);
  const outliers = useQuery({
    queryKey: [...keys.all(event.id), 'reviewer-outliers'],
    queryFn: ({ signal }) => get('/events/{id}/leaderboard/reviewers', { path: { id: event.id }, signal }),
    refetchInterval: interval,
  });
  const flagged = outliers.data?.reviewers.filter((r) => r.flagged) ?? [];
  const zscore = event.normalization === 'zscore';
  const groupName = (g: string) => (g === 'human' ? t('leaderboard.human') : g);

  return (
    <div className="stack">
      <LiveNote event={event} />
      <PendingNote count={pending} />
      <p className="small muted">{t(zscore ? 'leaderboard.normalizationZscore' : 'leaderboard.normalizationNone')}</p>
      <div className="detail-filters">
        {event.tracks.length > 0 ? (
          <Field label={t('detail.track')}>
            <select value={track} onChange={(e) => setTrack(e.target.value)}>
              <option value="">{t('detail.allTracks')}</option>
              {event.tracks.map((tr) => (
                <option key={tr.id} value={tr.id}>
                  {tr.name}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
      </div>
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title={t('leaderboard.empty')} />
      ) : (
        <>
          <TableWrap label={t('detail.tabs.leaderboard')}>
            <table>
              <caption id={captionId} className="sr-only">
                {t('detail.tabs.leaderboard')}
              </caption>
              <thead>
                <tr>
                  <th scope="col" className="num">
                    {t('leaderboard.rank')}
                  </th>
                  <th scope="col">{t('leaderboard.project')}</th>
                  <th scope="col" className="num">
                    {t('leaderboard.score')}
                  </th>
                  <th scope="col" className="num">
                    {t('leaderboard.scoreRaw')}
                  </th>
                  <th scope="col" className="num">
                    {t('leaderboard.scoreNormalized')}
                  </th>
                  <th scope="col">{t('leaderboard.coverage')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((e) => (
                  <tr key={e.project_id}>
                    <td className="num">{fmt.number(e.rank, 0)}</td>
                    <td className="detail-name-cell">
                      <Link href={projectReviewsHref(event.id, e.project_id)} className="detail-project-link">
                        <strong>{e.project_name}</strong>
                      </Link>
                      <div className="small muted">
                        {e.team_name}
                        {event.tracks.length > 0 ? ` · ${trackName(event, e.track_id, t('detail.noTrack'))}` : ''}
                      </div>
                    </td>
                    <td className="num">{isScored(e) ? fmt.number(e.score, 2) : <span className="badge badge-pending">{t('leaderboard.unscored')}</span>}</td>
                    <td className="num">{isScored(e) ? fmt.number(e.score_raw, 2) : '–'}</td>
                    <td className="num">{isScored(e) && e.score_normalized !== null ? fmt.number(e.score_normalized, 2) : '–'}</td>
                    <td className="small">
                      {t('leaderboard.coverageText', { succeeded: e.reviews.succeeded, expected: e.reviews.expected, human: e.reviews.human })}
                      {e.reviews.failed > 0 ? (
                        <>
                          {' '}
                          <span className="badge badge-failed">{t('leaderboard.coverageFailed', { count: e.reviews.failed })}</span>
                        </>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <LoadMore query={list} />

          <section className="card" aria-labelledby="charts-title">
            <div className="spread">
              <h2 id="charts-title">{t('leaderboard.chartsTitle')}</h2>
              <Field label={t('leaderboard.topN')} className="detail-topn">
                <select value={topN} onChange={(e) => setTopN(Number(e.target.value))}>
                  {[5, 10, 20].map((n) => (
                    <option key={n} value={n}>
                      {fmt.number(n, 0)}
                    </option>
                  ))}
                </select>
              </Field>
            </div>
            {rows.some(isScored) ? (
              <Suspense fallback={<Loading label={t('leaderboard.chartLoading')} />}>
                <ScoreCharts entries={rows} dimensions={event.dimensions.map((d) => d.name)} topN={topN} />
              </Suspense>
            ) : (
              <p className="muted">{t('leaderboard.chartsEmpty')}</p>
            )}
          </section>

          <section className="card" aria-labelledby="disagree-title">
            <h2 id="disagree-title">{t('leaderboard.disagreementTitle')}</h2>
            <p className="small muted">{t('leaderboard.disagreementHint')}</p>
            {disagree.length === 0 ? (
              <p className="muted">{t('leaderboard.noDisagreement')}</p>
            ) : (
              <TableWrap label={t('leaderboard.disagreementTitle')}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">{t('leaderboard.project')}</th>
                      <th scope="col" className="num">
                        {t('leaderboard.spread')}
                      </th>
                      <th scope="col">{t('leaderboard.highest')}</th>
                      <th scope="col">{t('leaderboard.lowest')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {disagree.map((d) => (
                      <tr key={d.entry.project_id}>
                        <td className="detail-name-cell">
                          <Link href={projectReviewsHref(event.id, d.entry.project_id)} className="detail-project-link">
                            <strong>{d.entry.project_name}</strong>
                          </Link>
                          <div className="small muted">{d.entry.team_name}</div>
                        </td>
                        <td className="num">{fmt.number(d.spread, 2)}</td>
                        <td>{t('leaderboard.groupScore', { group: groupName(d.high.group), score: fmt.number(d.high.score, 2) })}</td>
                        <td>{t('leaderboard.groupScore', { group: groupName(d.low.group), score: fmt.number(d.low.score, 2) })}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            )}
            <h3>{t('leaderboard.outliersTitle')}</h3>
            <p className="small muted">{t('leaderboard.outliersHint')}</p>
            {outliers.isError ? (
              <ErrorState error={outliers.error} onRetry={() => void outliers.refetch()} />
            ) : flagged.length === 0 ? (
              <p className="muted">{outliers.isPending ? t('leaderboard.outliersLoading') : t('leaderboard.noOutliers')}</p>
            ) : (
              <TableWrap label={t('leaderboard.outliersTitle')}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">{t('leaderboard.reviewer')}</th>
                      <th scope="col" className="num">
                        {t('leaderboard.offset')}
                      </th>
                      <th scope="col" className="num">
                        {t('leaderboard.correlation')}
                      </th>
                      <th scope="col" className="num">
                        {t('leaderboard.commonProjects')}
                      </th>
                      <th scope="col">{t('leaderboard.why')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {flagged.map((r) => (
                      <tr key={`${r.reviewer_kind}:${r.reviewer_id}`}>
                        <td className="detail-name-cell">
                          <strong>{r.reviewer_kind === 'model' ? r.reviewer_id : (r.name ?? r.email ?? r.reviewer_id)}</strong>
                          <div className="small muted">{r.reviewer_kind === 'model' ? t('leaderboard.model') : r.name ? (r.email ?? '') : ''}</div>
                        </td>
                        <td className="num">{r.mean_offset === null ? '–' : fmt.number(r.mean_offset, 2)}</td>
                        <td className="num">{r.correlation === null ? '–' : fmt.number(r.correlation, 2)}</td>
                        <td className="num">{fmt.number(r.common_projects, 0)}</td>
                        <td>{r.flags.map((f) => t(`leaderboard.flag.${f}`)).join(' · ')}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            )}
          </section>
        </>
      )}
    </div>
  );
}
