import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { useDetailFormat as useFormat } from './detail-format';
import { Field } from '../../ui/form';
import { EmptyState, ErrorState, Loading } from '../../ui/states';
import type { TabProps } from './detail-types';
import { disagreements, isScored } from './detail-leaderboard-math';
import { LiveNote, LoadMore, PendingNote, pendingOf, TableWrap, trackName, useOrganizerT, usePagedList } from './detail-shared';
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
  const groupName = (g: string) => (g === 'human' ? t('leaderboard.human') : g);

  return (
    <div className="stack">
      <LiveNote event={event} />
      <PendingNote count={pending} />
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
          </section>
        </>
      )}
    </div>
  );
}
