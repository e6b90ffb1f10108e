import { useT } from '../../i18n';
import type { Answer } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { messages } from './team-result-messages';
import './team-result.css';

/** The team's result as `GET /events/:id/my-registration` (and the team route) carry it, once published. */
export type TeamResult = NonNullable<Answer<'/events/{id}/my-registration'>['result']>;

/**
 * A team's own result: rank (overall and in its track), score, the score of each of the event's
 * dimensions and, when the organizer released it, every review's scores and comment (reviewers are
 * never named). Self-contained: give it the result and the event's dimensions.
 */
export function TeamResultView({
  result,
  dimensions,
  tracks = [],
}: {
  result: TeamResult;
  dimensions: ReadonlyArray<{ name: string }>;
  tracks?: ReadonlyArray<{ id: string; name: string }>;
}) {
  const { t } = useT('team-result', messages);
  const fmt = useFormat();
  const ranked = result.rank !== null;
  // A track's winner reads as the winner of its track first (with the prize), the overall place below.
  const trackName = tracks.find((tr) => tr.id === result.track_id)?.name ?? result.track_id;
  const wonTrack = ranked && result.track_rank === 1 && trackName !== null && Object.keys(result.scores_by_dimension).length > 0;
  return (
    <section className="card stack team-result" aria-labelledby="team-result-title">
      <h2 id="team-result-title">{t('title')}</h2>
      {wonTrack ? (
        <p className="team-result-won">
          <strong>{t('wonTrack', { track: trackName })}</strong>
          {result.track_prize ? <span className="team-result-prize">{t('prize', { prize: result.track_prize })}</span> : null}
        </p>
      ) : null}
      {ranked ? (
        <dl className="team-result-figures">
          <div>
            <dt>{wonTrack ? t('overallRank') : t('rank')}</dt>
            <dd>
              <strong className="team-result-rank">{t('rankOf', { rank: fmt.number(result.rank, 0), count: fmt.number(result.ranked_teams, 0) })}</strong>
            </dd>
          </div>
          {result.track_rank !== null ? (
            <div>
              <dt>{t('trackRank')}</dt>
              <dd>{fmt.number(result.track_rank, 0)}</dd>
            </div>
          ) : null}
          <div>
            <dt>{t('score')}</dt>
            <dd>{fmt.number(result.score, 2)}</dd>
          </div>
        </dl>
      ) : (
        <p>{t('notRanked')}</p>
      )}
      {ranked && dimensions.length > 0 ? (
        <table className="team-result-dimensions">
          <caption>{t('dimensions')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('dimension')}</th>
              <th scope="col">{t('score')}</th>
            </tr>
          </thead>
          <tbody>
            {dimensions.map((d) => (
              <tr key={d.name}>
                <th scope="row">{d.name}</th>
                <td>{d.name in result.scores_by_dimension ? fmt.number(result.scores_by_dimension[d.name], 2) : t('noScore')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <h3>{t('feedback')}</h3>
      {result.feedback === null ? (
        <p className="muted">{t('feedbackHidden')}</p>
      ) : result.feedback.length === 0 ? (
        <p className="muted">{t('feedbackEmpty')}</p>
      ) : (
        <>
          <p className="small muted">{t('reviewerHidden')}</p>
          <ul className="team-result-feedback">
            {result.feedback.map((f, i) => (
              <li key={i} className="team-result-review">
                <p>
                  <strong>{f.source === 'human' ? t('human') : t('model')}</strong>
                </p>
                {Object.keys(f.scores).length > 0 ? (
                  <p className="small">
                    {dimensions
                      .filter((d) => d.name in f.scores)
                      .map((d) => `${d.name}: ${fmt.number(f.scores[d.name], 2)}`)
                      .join(' · ')}
                  </p>
                ) : null}
                {f.comment ? <p className="team-result-comment">{f.comment}</p> : <p className="small muted">{t('noComment')}</p>}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
