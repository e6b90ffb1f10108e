import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem, apiPage, get } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { Button, PageHeader, StatusBadge, useTitle } from '../../ui/controls';
import { Checkbox, Field } from '../../ui/form';
import { EmptyState, ErrorState, Loading } from '../../ui/states';
import { EventNotFound, useEvent, type PublicEvent } from '../shared/event-data';
import { chartBars, dimensionColumns, judgeColumns, type ResultEntry } from './logic';
import { messages } from './messages';
import './public.css';

const ScoreChart = lazy(() => import('./score-chart'));
const PAGE_SIZE = 100;

export default function ResultPage({ params }: { params: { id: string } }) {
  const event = useEvent(params.id);
  if (event.isPending) return <Loading />;
  if (event.isError) {
    if (event.error instanceof ApiProblem && event.error.status === 404) return <EventNotFound />;
    return <ErrorState error={event.error} onRetry={() => void event.refetch()} />;
  }
  return <Result event={event.data} />;
}

function NotPublished({ event }: { event: PublicEvent }) {
  const { t } = useT('public', messages);
  useTitle(t('result.notPublishedTitle'));
  return (
    <section className="card not-published" aria-labelledby="np-title">
      <p className="muted small not-published-event">
        {event.name} <StatusBadge status={event.status} />
      </p>
      <h1 id="np-title">{t('result.notPublishedTitle')}</h1>
      <p>{t('result.notPublished')}</p>
      <Link className="btn btn-primary" href={`/hackathons/${event.id}`}>
        {t('result.back')}
      </Link>
    </section>
  );
}

function Result({ event }: { event: PublicEvent }) {
  const { t } = useT('public', messages);
  const f = useFormat();
  const [location, navigate] = useLocation();
  const requested = new URLSearchParams(useSearch()).get('track');
  const [showJudges, setShowJudges] = useState(false);
  const track = event.tracks.some((tr) => tr.id === requested) ? requested : null;
  const query = useInfiniteQuery({
    queryKey: ['public-result', event.id, track],
    queryFn: ({ pageParam, signal }) =>
      apiPage('/events/{id}/result', { path: { id: event.id }, query: { track_id: track, limit: PAGE_SIZE, cursor: pageParam }, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
  if (query.isError && query.error instanceof ApiProblem && query.error.code === 'results_not_published') return <NotPublished event={event} />;

  const entries = query.data?.pages.flatMap((p) => p.items) ?? [];
  const trackName = (id: string | null) => event.tracks.find((tr) => tr.id === id)?.name ?? id ?? '–';
  const dims = dimensionColumns(entries, event.dimensions);
  const judges = judgeColumns(entries);
  // A model id may break after its provider ("anthropic/" above "claude-sonnet-4-5") in a narrow header.
  const judgeLabel = (g: string) =>
    g === 'human' ? t('result.humanJudges') : g.split('/').flatMap((part, i, all) => (i < all.length - 1 ? [`${part}/`, <wbr key={i} />] : [part]));
  const scored = entries.filter((e) => Object.keys(e.scores_by_dimension).length > 0);
  const prizeOf = trackPrizes(event, scored);
  // "1st in <track>" on a track winner's row of the whole ranking (a track's own view ranks within it).
  const wonTrack = (e: ResultEntry) => track === null && e.track_id !== null && e.track_rank === 1 && scored.includes(e);
  // Each entry opens its project page, unless the organizer keeps the projects private.
  const linked = event.gallery_visibility !== 'never';
  const bars = chartBars(scored, 10);

  return (
    <div className="result-page">
      <PageHeader
        title={t('result.title', { name: event.name })}
        subtitle={event.result_announced_at ? t('result.subtitle', { date: f.dateTime(event.result_announced_at) }) : undefined}
        actions={
          <>
            <a className="btn btn-secondary" href={`/api/v1/events/${encodeURIComponent(event.id)}/result/bundle`} download title={t('result.bundleHint')}>
              {t('result.bundle')}
            </a>
            <Link className="btn btn-secondary" href={`/hackathons/${event.id}`}>
              {t('result.back')}
            </Link>
          </>
        }
      />
      <p className="muted small result-verify">
        {t('result.verifyLead')}{' '}
        <a href="/verify-bundle.mjs" download>
          {t('result.verifyLink')}
        </a>{' '}
        {t('result.verifyRun')}{' '}
        <code>
          node verify-bundle.mjs {`${event.id}-result-bundle.json`} --site {window.location.origin}
        </code>
      </p>
      {event.tracks.length > 0 ? (
        <div className="track-switch">
          <Field label={t('result.trackLabel')} hint={t('result.trackHint')}>
            <select
              value={track ?? ''}
              onChange={(e) => navigate(e.target.value ? `${location}?track=${encodeURIComponent(e.target.value)}` : location, { replace: true })}
            >
              <option value="">{t('result.allTracks')}</option>
              {event.tracks.map((tr) => (
                <option key={tr.id} value={tr.id}>
                  {tr.name}
                </option>
              ))}
            </select>
          </Field>
        </div>
      ) : null}
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : entries.length === 0 ? (
        <EmptyState title={t('result.empty')} />
      ) : (
        <div className="stack">
          {event.tracks.length > 0 ? <TrackWinners event={event} linked={linked} /> : null}
          <Podium
            entries={entries.filter((e) => e.rank <= 3 && Object.keys(e.scores_by_dimension).length > 0).slice(0, 3)}
            trackName={trackName}
            overall={event.tracks.length > 0 && track === null}
          />
          {bars.length > 0 ? (
            <figure className="card chart-card">
              <figcaption>
                <h2>{t('result.chartTitle')}</h2>
                <p className="chart-caption">{t('result.chartCaption')}</p>
              </figcaption>
              <Suspense fallback={<Loading />}>
                <ScoreChart bars={bars} scoreLabel={t('result.score')} format={(n) => f.number(n, 2)} />
              </Suspense>
            </figure>
          ) : null}
          <section aria-labelledby="ranking-title">
            <div className="spread">
              <h2 id="ranking-title">{t('result.ranking')}</h2>
              <span className="muted small">{t('result.entries', { count: entries.length })}</span>
            </div>
            {judges.length > 0 ? (
              <Checkbox label={t('result.byJudge')} hint={t('result.byJudgeHint')} checked={showJudges} onChange={(e) => setShowJudges(e.target.checked)} />
            ) : null}
            <div className="table-wrap ranking-wrap" role="region" aria-labelledby="ranking-title" tabIndex={0}>
              <table className="ranking">
                <thead>
                  <tr>
                    <th scope="col" className="num">
                      {t('result.rank')}
                    </th>
                    <th scope="col">{t('result.project')}</th>
                    <th scope="col" className="num score-col">
                      {t('result.score')}
                    </th>
                    {dims.map((d) => (
                      <th key={d} scope="col" className="num dim-col">
                        {d}
                      </th>
                    ))}
                    {showJudges
                      ? judges.map((g) => (
                          <th key={`judge-${g}`} scope="col" className="num judge-col">
                            {judgeLabel(g)}
                          </th>
                        ))
                      : null}
                  </tr>
                </thead>
                <tbody>
                  {entries.map((e) => {
                    const unscored = Object.keys(e.scores_by_dimension).length === 0;
                    return (
                      <tr key={e.project_id}>
                        <td className="num">
                          <span className={e.rank <= 3 && !unscored ? `rank rank-${e.rank}` : 'rank'}>{e.rank}</span>
                        </td>
                        <th scope="row" className="project-cell">
                          <span className="project-cell-name">
                            {linked ? <Link href={`/hackathons/${event.id}/projects/${e.project_id}`}>{e.project_name}</Link> : e.project_name}
                          </span>
                          {wonTrack(e) ? <span className="won-track small">{t('result.wonTrack', { track: trackName(e.track_id) })}</span> : null}
                          {prizeOf(e) ? <span className="prize small">{t('result.prize', { prize: prizeOf(e) })}</span> : null}
                          <span className="project-cell-team">
                            {e.team_name}
                            {event.tracks.length > 0 ? ` · ${trackName(e.track_id)}` : ''}
                          </span>
                        </th>
                        <td className="num score-col">
                          {unscored ? <span className="muted">{t('result.noScore')}</span> : <strong>{f.number(e.score, 2)}</strong>}
                        </td>
                        {dims.map((d) => (
                          <td key={d} className="num dim-col">
                            {f.number(e.scores_by_dimension[d], 2)}
                          </td>
                        ))}
                        {showJudges
                          ? judges.map((g) => (
                              <td key={`judge-${g}`} className="num judge-col">
                                {f.number(e.scores_by_model[g], 2)}
                              </td>
                            ))
                          : null}
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            {query.hasNextPage ? (
              <div className="load-more">
                <Button variant="secondary" busy={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                  {t('actions.loadMore', { ns: 'common' })}
                </Button>
              </div>
            ) : null}
          </section>
          {event.voting.enabled ? <PeoplesChoice event={event} linked={linked} /> : null}
        </div>
      )}
    </div>
  );
}

/** The people's choice, published with the results beside the judged ranking. */
function PeoplesChoice({ event, linked }: { event: PublicEvent; linked: boolean }) {
  const { t } = useT('public', messages);
  const query = useQuery({
    queryKey: ['peoples-choice', event.id],
    queryFn: ({ signal }) => get('/events/{id}/result/peoples-choice', { path: { id: event.id }, signal }),
  });
  return (
    <section className="card" aria-labelledby="pc-title">
      <h2 id="pc-title">{t('result.peoplesChoice')}</h2>
      <p className="muted small">{t('result.peoplesChoiceHint')}</p>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.entries.length === 0 ? (
        <p className="muted">{t('result.noVotes')}</p>
      ) : query.data.per_track ? (
        // Voted per track: one list per track, ranked within it.
        <div className="pc-tracks">
          {[...event.tracks.map((tr) => ({ id: tr.id, name: tr.name })), { id: null, name: t('result.noTrack') }].map((tr) => {
            const list = query.data.entries.filter((e) => (e.scope ?? null) === tr.id);
            if (list.length === 0) return null;
            return (
              <div key={tr.id ?? ''} className="pc-track">
                <h3>{t('result.peoplesChoiceOf', { track: tr.name })}</h3>
                <PeoplesChoiceList entries={list} event={event} linked={linked} />
              </div>
            );
          })}
        </div>
      ) : (
        <PeoplesChoiceList entries={query.data.entries} event={event} linked={linked} />
      )}
    </section>
  );
}

type PeoplesChoiceEntry = { rank: number; project_id: string; project_name: string; team_name: string; votes: number };

function PeoplesChoiceList({ entries, event, linked }: { entries: PeoplesChoiceEntry[]; event: PublicEvent; linked: boolean }) {
  const { t } = useT('public', messages);
  return (
    <ol className="peoples-choice">
      {entries.slice(0, 10).map((e) => (
        <li key={e.project_id}>
          <span className="rank">{e.rank}</span>{' '}
          {linked ? <Link href={`/hackathons/${event.id}/projects/${e.project_id}`}>{e.project_name}</Link> : e.project_name}{' '}
          <span className="muted small">
            {e.team_name} · {t('result.votes', { count: e.votes })}
          </span>
        </li>
      ))}
    </ol>
  );
}

/**
 * The winners as the event defines them (GET result/winners): each track's winner(s), "1st in
 * <track>", with the track's prize and the overall place beside it.
 */
function TrackWinners({ event, linked }: { event: PublicEvent; linked: boolean }) {
  const { t } = useT('public', messages);
  const f = useFormat();
  const query = useQuery({
    queryKey: ['result-winners', event.id],
    queryFn: ({ signal }) => get('/events/{id}/result/winners', { path: { id: event.id }, signal }),
  });
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const won = query.data.tracks.filter((tr) => tr.projects.length > 0);
  if (won.length === 0) return null;
  return (
    <section aria-labelledby="winners-title">
      <h2 id="winners-title">{t('result.winners')}</h2>
      <ul className="winners">
        {won.flatMap((tr) =>
          tr.projects.map((p) => (
            <li key={`${tr.track_id}-${p.project_id}`} className="card winner-item">
              <span className="winner-place">{t('result.wonTrack', { track: tr.track_name })}</span>
              {tr.prize ? <span className="prize">{tr.prize}</span> : null}
              <strong className="podium-name">
                {linked ? <Link href={`/hackathons/${event.id}/projects/${p.project_id}`}>{p.project_name}</Link> : p.project_name}
              </strong>
              <span className="muted small">{p.team_name}</span>
              <span className="small">
                {t('result.overallPlace', { rank: p.rank })} · {t('result.scoreOf', { score: f.number(p.score, 2) })}
              </span>
            </li>
          )),
        )}
      </ul>
    </section>
  );
}

function Podium({ entries, trackName, overall }: { entries: ResultEntry[]; trackName: (id: string | null) => string; overall: boolean }) {
  const { t } = useT('public', messages);
  const f = useFormat();
  if (entries.length === 0) return null;
  return (
    <section aria-labelledby="podium-title">
      {/* Beside the track winners, the overall places have their own heading. */}
      <h2 id="podium-title" className={overall ? undefined : 'sr-only'}>
        {overall ? t('result.overallTop') : t('result.podium')}
      </h2>
      <ol className="podium">
        {entries.map((e) => (
          <li key={e.project_id} className={`card podium-item podium-${e.rank}`}>
            <span className="podium-place">{t('result.place', { rank: e.rank })}</span>
            <strong className="podium-name">{e.project_name}</strong>
            <span className="muted small">
              {e.team_name}
              {e.track_id ? ` · ${trackName(e.track_id)}` : ''}
            </span>
            <span className="podium-score">{t('result.scoreOf', { score: f.number(e.score, 2) })}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * The prize an entry wins: the one frozen with it at publication (`track_prize`); for an entry
 * published before that, its track's prize when it is (one of) the best scored entries of its
 * track among those shown (ties share it). Entries without a track, or of a track without a
 * prize, win none.
 */
export function trackPrizes(event: PublicEvent, scored: ResultEntry[]): (e: ResultEntry) => string | null {
  if (scored.some((e) => e.track_prize !== undefined)) return (e) => (scored.includes(e) ? (e.track_prize ?? null) : null);
  const best = new Map<string, number>();
  for (const e of scored) if (e.track_id !== null && !(best.get(e.track_id)! <= e.rank)) best.set(e.track_id, e.rank);
  return (e) => {
    if (e.track_id === null || best.get(e.track_id) !== e.rank || !scored.includes(e)) return null;
    return event.tracks.find((tr) => tr.id === e.track_id)?.prize || null;
  };
}
