import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { ApiProblem, apiPage, post, put } from '../../lib/api';
import { useDetailFormat as useFormat } from './detail-format';
import { Button, ConfirmDialog } from '../../ui/controls';
import { Checkbox } from '../../ui/form';
import { EmptyState, ErrorState, Loading, ProblemAlert } from '../../ui/states';
import type { TabProps } from './detail-types';
import { isScored, topPerTrack, trackPlaces, unscored } from './detail-leaderboard-math';
import { keys, useLiveInterval, LiveNote, PendingNote, pendingOf, useOrganizerT } from './detail-shared';

const PREVIEW_LIMIT = 1000;

export default function PublishTab({ event }: TabProps) {
  const { t } = useOrganizerT();
  const fmt = useFormat();
  const client = useQueryClient();
  const judging = event.status === 'judging';
  const live = useLiveInterval(event.id);
  const preview = useQuery({
    queryKey: [...keys.all(event.id), 'publish-preview'],
    queryFn: ({ signal }) => apiPage('/events/{id}/leaderboard', { path: { id: event.id }, query: { limit: PREVIEW_LIMIT }, signal }),
    enabled: judging,
    refetchInterval: live,
  });
  const [step, setStep] = useState<'idle' | 'confirm' | 'unscored' | 'unfinished'>('idle');
  const [unscoredCount, setUnscoredCount] = useState(0);
  const [unfinished, setUnfinished] = useState<{ mode: string; projects: number; reviewers: number; open: number }>({
    mode: 'every',
    projects: 0,
    reviewers: 0,
    open: 0,
  });
  const [releaseFeedback, setReleaseFeedback] = useState(false);
  const publish = useMutation({
    mutationFn: (force: boolean) =>
      post('/events/{id}/results/publish', {
        path: { id: event.id },
        body: { ...(force ? { force: true } : {}), ...(releaseFeedback ? { release_feedback: true } : {}) },
      }),
    onSuccess: async () => {
      setStep('idle');
      await client.invalidateQueries({ queryKey: keys.all(event.id) });
    },
    onError: (error) => {
      if (error instanceof ApiProblem && error.code === 'unscored_projects') {
        setUnscoredCount(typeof error.body.unscored_count === 'number' ? error.body.unscored_count : 0);
        setStep('unscored');
      }
      if (error instanceof ApiProblem && error.code === 'unfinished_judging') {
        const n = (v: unknown) => (typeof v === 'number' ? v : 0);
        setUnfinished({
          mode: typeof error.body.mode === 'string' ? error.body.mode : 'every',
          projects: n(error.body.projects_unfinished),
          reviewers: n(error.body.reviewers_unfinished),
          open: n(error.body.open_assignments),
        });
        setStep('unfinished');
      }
    },
  });

  if (event.status === 'ended') {
    return (
      <div className="card stack">
        <p className="alert alert-ok" role="status">
          {t('publish.published')}
        </p>
        <p>
          <Link href={`/hackathons/${encodeURIComponent(event.id)}/result`} className="btn btn-primary">
            {t('publish.viewResult')}
          </Link>
        </p>
        <FeedbackSwitch eventId={event.id} released={event.feedback_released === true} />
      </div>
    );
  }
  if (event.status === 'cancelled') return <EmptyState title={t('publish.cancelled')} />;
  if (!judging) return <EmptyState title={t('publish.notYet')} />;
  if (preview.isPending) return <Loading />;
  if (preview.isError) return <ErrorState error={preview.error} onRetry={() => void preview.refetch()} />;

  const entries = preview.data.items;
  const missing = unscored(entries);
  const trackIds = event.tracks.length > 0 ? event.tracks.map((tr) => tr.id) : [null];
  const scored = entries.filter(isScored);
  const tops = topPerTrack(scored, trackIds, 3);
  // Within a track, its own places (1st: the track's winner, with its prize), as the result will say.
  const places = trackPlaces(scored);
  const overallTop = scored.filter((e) => e.rank <= 3);
  const otherError =
    publish.error && !(publish.error instanceof ApiProblem && (publish.error.code === 'unscored_projects' || publish.error.code === 'unfinished_judging'))
      ? publish.error
      : null;
  const warned = step === 'unscored' || step === 'unfinished';

  return (
    <div className="stack">
      <LiveNote event={event} />
      <section className="card stack" aria-labelledby="preview-title">
        <h2 id="preview-title">{t('publish.previewTitle')}</h2>
        <p>{t('publish.previewIntro')}</p>
        <PendingNote count={pendingOf(preview.data)} />
        <p>
          <strong>{t('publish.projects', { count: entries.length })}</strong>
        </p>
        {missing.length > 0 ? (
          <div className="alert alert-warn">
            <p>{t('publish.unscoredWarning', { count: missing.length })}</p>
            <p className="small">
              {missing
                .slice(0, 10)
                .map((e) => e.project_name)
                .join(', ')}
            </p>
            <p className="small">
              {t('publish.rerunHint')} <Link href={`/events/${encodeURIComponent(event.id)}/ai-reviews`}>{t('detail.tabs.aiReviews')}</Link>
            </p>
          </div>
        ) : null}
        <div className="grid">
          {event.tracks.length > 0 ? (
            <div className="detail-top">
              <h3>{t('publish.overall')}</h3>
              {overallTop.length === 0 ? (
                <p className="small muted">{t('leaderboard.chartsEmpty')}</p>
              ) : (
                <ol className="detail-podium">
                  {overallTop.map((e) => (
                    <li key={e.project_id}>
                      <span className="detail-podium-rank">{fmt.number(e.rank, 0)}</span> <strong>{e.project_name}</strong>{' '}
                      <span className="muted">{fmt.number(e.score, 2)}</span>
                    </li>
                  ))}
                </ol>
              )}
            </div>
          ) : null}
          {[...tops.entries()].map(([trackId, top]) => {
            const trackInfo = event.tracks.find((tr) => tr.id === trackId);
            return (
              <div key={trackId ?? 'all'} className="detail-top">
                <h3>{trackId ? t('publish.topOf', { track: trackInfo?.name ?? trackId }) : t('publish.overall')}</h3>
                {top.length === 0 ? (
                  <p className="small muted">{t('leaderboard.chartsEmpty')}</p>
                ) : (
                  <ol className="detail-podium">
                    {top.map((e) => {
                      const place = trackId ? (places.get(e.project_id) ?? e.rank) : e.rank;
                      return (
                        <li key={e.project_id}>
                          <span className="detail-podium-rank">{fmt.number(place, 0)}</span> <strong>{e.project_name}</strong>{' '}
                          <span className="muted">{fmt.number(e.score, 2)}</span>
                          {trackId ? <span className="muted small"> · {t('publish.overallPlace', { rank: fmt.number(e.rank, 0) })}</span> : null}
                          {trackId && place === 1 ? (
                            <span className="detail-winner small">
                              {trackInfo?.prize
                                ? t('publish.trackWinnerPrize', { track: trackInfo.name, prize: trackInfo.prize })
                                : t('publish.trackWinner', { track: trackInfo?.name ?? trackId })}
                            </span>
                          ) : null}
                        </li>
                      );
                    })}
                  </ol>
                )}
              </div>
            );
          })}
        </div>
        <Checkbox
          label={t('publish.releaseFeedback')}
          hint={t('publish.releaseFeedbackHint')}
          checked={releaseFeedback}
          onChange={(e) => setReleaseFeedback(e.target.checked)}
        />
        {otherError ? <ProblemAlert error={otherError} /> : null}
        <div className="form-actions">
          <Button
            variant="primary"
            onClick={() => {
              publish.reset();
              setStep('confirm');
            }}
          >
            {t('publish.publishButton')}
          </Button>
        </div>
      </section>

      <ConfirmDialog
        open={step !== 'idle'}
        title={step === 'unscored' ? t('publish.unscoredTitle') : step === 'unfinished' ? t('publish.unfinishedTitle') : t('publish.confirmTitle')}
        confirmLabel={warned ? t('publish.publishAnyway') : t('publish.publishButton')}
        variant={warned ? 'danger' : 'primary'}
        busy={publish.isPending}
        onConfirm={() => publish.mutate(warned)}
        onClose={() => {
          if (!publish.isPending) setStep('idle');
        }}
      >
        {step === 'unscored' ? (
          <>
            <p>{t('publish.unscoredBody', { count: unscoredCount })}</p>
            <p className="small">{t('publish.rerunHint')}</p>
          </>
        ) : step === 'unfinished' ? (
          <>
            <p>
              {unfinished.mode === 'assigned'
                ? t('publish.unfinishedAssigned', { projects: unfinished.projects, reviewers: unfinished.reviewers, open: unfinished.open })
                : t('publish.unfinishedEvery', { projects: unfinished.projects, reviewers: unfinished.reviewers })}
            </p>
            <p className="small">{t('publish.unfinishedHint')}</p>
          </>
        ) : (
          <>
            <p>{t('publish.confirmBody')}</p>
            <p className="small">{releaseFeedback ? t('publish.confirmFeedbackOn') : t('publish.confirmFeedbackOff')}</p>
          </>
        )}
      </ConfirmDialog>
    </div>
  );
}

/** After publication: whether the teams read their reviews (reviewers unnamed), switched at once. */
function FeedbackSwitch({ eventId, released }: { eventId: string; released: boolean }) {
  const { t } = useOrganizerT();
  const client = useQueryClient();
  const change = useMutation({
    mutationFn: (next: boolean) => put('/events/{id}/results/feedback', { path: { id: eventId }, body: { released: next } }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: keys.all(eventId) });
    },
  });
  const shown = change.isPending && change.variables !== undefined ? change.variables : released;
  return (
    <section className="stack" aria-labelledby="feedback-title">
      <h2 id="feedback-title">{t('publish.feedbackTitle')}</h2>
      <Checkbox
        role="switch"
        label={t('publish.releaseFeedback')}
        checked={shown}
        disabled={change.isPending}
        onChange={(e) => change.mutate(e.target.checked)}
      />
      <p className="small muted" role="status">
        {shown ? t('publish.feedbackOn') : t('publish.feedbackOff')}
      </p>
      {change.error ? <ProblemAlert error={change.error} /> : null}
    </section>
  );
}
