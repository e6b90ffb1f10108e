import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'wouter';
import { ApiProblem, get, type Answer } from '../../lib/api';
import { PageHeader } from '../../ui/controls';
import { ErrorState, Loading, NotFound } from '../../ui/states';
import { useDetailFormat as useFormat } from './detail-format';
import { keys, ProjectLinks, TableWrap, trackName, useEvent, useLiveInterval, useOrganizerT } from './detail-shared';
import './detail.css';
import { ProjectFlags } from './project-flags';

type ProjectReviews = Answer<'/events/{id}/projects/{project_id}/reviews'>;
type AiReview = ProjectReviews['ai_reviews'][number];
type HumanReview = ProjectReviews['human_reviews'][number];

/**
 * One project as its judges saw it, for the event's organizers: its score line, every reviewer's
 * score per dimension in one table, the AI models' summaries and failures, the human reviewers'
 * comments with their names. Summaries and comments are shown as text (never as HTML). Updates
 * while the event is live, like the event's tabs.
 */
export default function ProjectReviewsPage() {
  const params = useParams<{ id: string; projectId: string }>();
  const id = params.id ?? '';
  const projectId = params.projectId ?? '';
  const { t } = useOrganizerT();
  const event = useEvent(id);
  const live = useLiveInterval(id);
  const reviews = useQuery({
    queryKey: [...keys.all(id), 'project-reviews', projectId],
    queryFn: ({ signal }) => get('/events/{id}/projects/{project_id}/reviews', { path: { id, project_id: projectId }, signal }),
    refetchInterval: live,
  });
  if (event.isPending || reviews.isPending) return <Loading />;
  if (event.isError) {
    if (event.error instanceof ApiProblem && event.error.status === 404) return <NotFound />;
    return <ErrorState error={event.error} onRetry={() => void event.refetch()} />;
  }
  const back = `/events/${encodeURIComponent(event.data.id)}`;
  if (reviews.isError) {
    if (reviews.error instanceof ApiProblem && reviews.error.code === 'project_not_found') {
      return (
        <section className="state state-block" aria-labelledby="np-title">
          <h1 id="np-title">{t('projectReviews.notFound')}</h1>
          <p>
            <Link href={`${back}/projects`}>{t('projectReviews.back', { event: event.data.name })}</Link>
          </p>
        </section>
      );
    }
    return <ErrorState error={reviews.error} onRetry={() => void reviews.refetch()} />;
  }
  return <ReviewsView data={reviews.data} event={event.data} back={back} />;
}

function ReviewsView({ data, event, back }: { data: ProjectReviews; event: Answer<'/events/{id}'>; back: string }) {
  const { t } = useOrganizerT();
  const fmt = useFormat();
  const p = data.project;
  const dims = data.dimensions;
  const score = (v: number | undefined | null) => (v === undefined || v === null ? '–' : fmt.number(v, 2));
  const weighted = (scores: Record<string, number> | null) => {
    if (!scores) return null;
    let sum = 0;
    let weights = 0;
    for (const d of dims) {
      const v = scores[d.name];
      if (v === undefined) return null;
      sum += d.weight * v;
      weights += d.weight;
    }
    return weights > 0 ? sum / weights : null;
  };
  const scoredAi = data.ai_reviews.filter((r) => r.scores);
  const rows: Array<{ key: string; label: string; mono: boolean; scores: Record<string, number> }> = [
    ...scoredAi.map((r) => ({ key: r.id, label: r.model, mono: true, scores: r.scores! })),
    ...data.human_reviews.map((r) => ({ key: r.id, label: reviewerLabel(r), mono: false, scores: r.scores })),
  ];

  return (
    <div className="detail project-reviews">
      <p className="small">
        <Link href={`${back}/leaderboard`}>← {t('projectReviews.back', { event: event.name })}</Link>
      </p>
      <PageHeader
        title={t('projectReviews.title', { project: p.project_name })}
        subtitle={
          <>
            {t('projectReviews.team', { team: p.team_name })}
            {event.tracks.length > 0 ? ` · ${trackName(event, p.track_id, t('detail.noTrack'))}` : ''}
          </>
        }
      >
        <div className="row">
          <span className={`badge badge-review-${p.review_status}`}>{t(`projects.reviewStatus.${p.review_status}`)}</span>
        </div>
        {!p.judged ? (
          <div className="alert alert-warn" role="note">
            {t('projectReviews.notJudged')}
          </div>
        ) : null}
        <ProjectLinks project={p} />
      </PageHeader>

      <div className="stack">
        <ProjectFlags eventId={event.id} projectId={p.id} flags={data.flags} queryKey={[...keys.all(event.id), 'project-reviews', p.id]} />
        <section className="card" aria-labelledby="pr-score">
          <h2 id="pr-score">{t('projectReviews.scoreTitle')}</h2>
          {data.standing.score === null ? (
            <p className="muted">{t('projectReviews.unscored')}</p>
          ) : (
            <dl className="facts">
              <dt>{t('projectReviews.score')}</dt>
              <dd>
                <strong className="pr-score">{score(data.standing.score)}</strong>
              </dd>
              {Object.entries(data.standing.scores_by_model).map(([group, v]) => (
                <FragmentRow key={group} label={group === 'human' ? t('leaderboard.human') : group} value={score(v)} mono={group !== 'human'} />
              ))}
            </dl>
          )}
        </section>

        <section className="card" aria-labelledby="pr-scores">
          <h2 id="pr-scores">{t('projectReviews.scoresTitle')}</h2>
          {rows.length === 0 ? (
            <p className="muted">{t('projectReviews.unscored')}</p>
          ) : (
            <TableWrap label={t('projectReviews.scoresTitle')}>
              <table>
                <caption className="small muted pr-caption">{t('projectReviews.scoresCaption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('projectReviews.reviewer')}</th>
                    {dims.map((d) => (
                      <th key={d.name} scope="col" className="num">
                        {d.name}
                        <div className="small muted">{t('projectReviews.weight', { weight: fmt.number(d.weight) })}</div>
                      </th>
                    ))}
                    <th scope="col" className="num">
                      {t('projectReviews.weighted')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.key}>
                      <th scope="row" className={r.mono ? 'detail-model-name' : 'pr-reviewer-cell'}>
                        {r.label}
                      </th>
                      {dims.map((d) => (
                        <td key={d.name} className="num">
                          {score(r.scores[d.name])}
                        </td>
                      ))}
                      <td className="num">{score(weighted(r.scores))}</td>
                    </tr>
                  ))}
                </tbody>
                {data.standing.score !== null ? (
                  <tfoot>
                    <tr>
                      <th scope="row">{t('projectReviews.average')}</th>
                      {dims.map((d) => (
                        <td key={d.name} className="num">
                          <strong>{score(data.standing.scores_by_dimension[d.name])}</strong>
                        </td>
                      ))}
                      <td className="num">
                        <strong>{score(data.standing.score)}</strong>
                      </td>
                    </tr>
                  </tfoot>
                ) : null}
              </table>
            </TableWrap>
          )}
        </section>

        <section className="card" aria-labelledby="pr-ai">
          <h2 id="pr-ai">{t('projectReviews.aiTitle')}</h2>
          {data.ai_reviews.length === 0 ? (
            <p className="muted">{t('projectReviews.noAi')}</p>
          ) : (
            <ul className="detail-list">
              {data.ai_reviews.map((r) => (
                <AiReviewItem key={r.id} review={r} />
              ))}
            </ul>
          )}
        </section>

        <section className="card" aria-labelledby="pr-human">
          <h2 id="pr-human">{t('projectReviews.humanTitle')}</h2>
          {data.human_reviews.length === 0 ? (
            <p className="muted">{t('projectReviews.noHuman')}</p>
          ) : (
            <ul className="detail-list">
              {data.human_reviews.map((r) => (
                <li key={r.id} className="detail-item">
                  <div className="spread">
                    <strong className="pr-reviewer">{reviewerLabel(r)}</strong>
                    <span className="small muted">{t('projectReviews.updated', { date: fmt.dateTime(r.updated_at) })}</span>
                  </div>
                  {r.reviewer_name && r.reviewer_email ? <div className="small muted detail-email">{r.reviewer_email}</div> : null}
                  {r.comment ? <p className="detail-description">{r.comment}</p> : <p className="small muted">{t('projectReviews.noComment')}</p>}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}

function FragmentRow({ label, value, mono }: { label: string; value: string; mono: boolean }) {
  return (
    <>
      <dt className={mono ? 'detail-model-name' : undefined}>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}

function reviewerLabel(r: HumanReview): string {
  return r.reviewer_name ?? r.reviewer_email ?? r.reviewer_id;
}

function AiReviewItem({ review: r }: { review: AiReview }) {
  const { t } = useOrganizerT();
  const tone = r.status === 'succeeded' ? 'badge-review-reviewed' : r.status === 'failed' ? 'badge-failed' : 'badge-pending';
  return (
    <li className="detail-item">
      <div className="spread">
        <strong className="detail-model-name">{r.model}</strong>
        <span className={`badge ${tone}`}>{t(`projectReviews.status.${r.status}`)}</span>
      </div>
      {r.status === 'succeeded' && r.summary ? (
        <p className="detail-description" aria-label={t('projectReviews.summary')}>
          {r.summary}
        </p>
      ) : null}
      {r.status === 'failed' ? (
        <div className="detail-reason" role="note">
          <strong>{t('projectReviews.failed', { count: r.attempts })}</strong>
          {r.failure_reason ? <div className="detail-reason-cell">{r.failure_reason}</div> : null}
        </div>
      ) : null}
      {r.status !== 'failed' && r.status !== 'succeeded' && r.last_error ? (
        <p className="small muted">{t('projectReviews.retrying', { count: r.attempts + 1, error: r.last_error })}</p>
      ) : null}
    </li>
  );
}
