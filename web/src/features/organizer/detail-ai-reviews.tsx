import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { post } from '../../lib/api';
import { useDetailFormat as useFormat } from './detail-format';
import { Button, ConfirmDialog } from '../../ui/controls';
import { EmptyState, ErrorState, Loading, ProblemAlert } from '../../ui/states';
import type { TabProps } from './detail-types';
import { fraction } from './detail-leaderboard-math';
import { keys, LiveNote, LoadMore, ProgressBar, TableWrap, useOrganizerT, usePagedList, useStats } from './detail-shared';
import { projectReviewsHref } from './project-links';

export default function AiReviewsTab({ event }: TabProps) {
  const { t } = useOrganizerT();
  const fmt = useFormat();
  const client = useQueryClient();
  const stats = useStats(event.id);
  const failures = usePagedList(event.id, 'reviews-failed', '/events/{id}/reviews', { status: 'failed' });
  const failedRows = useMemo(() => (failures.data?.pages.flatMap((p) => p.items) ?? []).filter((r) => r.reviewer_kind === 'model'), [failures.data]);
  // null: every failed review; a model id: that model's failed ones.
  const [target, setTarget] = useState<string | null | undefined>(undefined);
  const [requeued, setRequeued] = useState<number | null>(null);
  const rerun = useMutation({
    mutationFn: (model: string | null) => post('/events/{id}/reviews/rerun', { path: { id: event.id }, body: model ? { model, status: 'failed' } : {} }),
    onSuccess: async (answer) => {
      setTarget(undefined);
      setRequeued(answer.requeued);
      await client.invalidateQueries({ queryKey: keys.all(event.id) });
    },
  });

  if (event.models.length === 0) return <EmptyState title={t('ai.noModels')} />;
  if (stats.isPending) return <Loading />;
  if (stats.isError) return <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />;
  const judging = event.status === 'judging';
  const totalFailed = stats.data.reviews.by_model.reduce((a, m) => a + m.failed, 0);
  const started = stats.data.reviews.by_model.some((m) => m.done + m.failed + m.pending + m.running > 0);

  return (
    <div className="stack">
      <LiveNote event={event} />
      {requeued !== null ? (
        <div className="alert alert-ok" role="status">
          {t('ai.rerunDone', { count: requeued })}
        </div>
      ) : null}
      {rerun.error && target === undefined ? <ProblemAlert error={rerun.error} /> : null}
      <section className="card" aria-labelledby="ai-progress">
        <div className="spread">
          <h2 id="ai-progress">{t('ai.progressTitle')}</h2>
          {judging && totalFailed > 0 ? (
            <Button
              variant="primary"
              onClick={() => {
                rerun.reset();
                setTarget(null);
              }}
            >
              {t('ai.rerunAll')}
            </Button>
          ) : null}
        </div>
        {!started ? <p className="muted">{t('ai.notStarted')}</p> : null}
        <ul className="detail-models">
          {stats.data.reviews.by_model.map((m) => {
            const total = m.done + m.failed + m.pending + m.running;
            const progress = t('ai.progress', { done: fmt.number(m.done), total: fmt.number(total) });
            return (
              <li key={m.reviewer} className="detail-model">
                <div className="spread">
                  <strong className="detail-model-name">{m.reviewer}</strong>
                  <span>{progress}</span>
                </div>
                <ProgressBar value={fraction(m.done, total)} label={`${m.reviewer}: ${progress}`} tone={m.failed > 0 ? 'danger' : 'primary'} />
                <div className="spread small">
                  <span className="muted">
                    {t('ai.counts', { pending: fmt.number(m.pending), running: fmt.number(m.running), failed: fmt.number(m.failed) })}
                  </span>
                  {judging && m.failed > 0 ? (
                    <Button
                      variant="secondary"
                      className="btn-small"
                      onClick={() => {
                        rerun.reset();
                        setTarget(m.reviewer);
                      }}
                    >
                      {t('ai.rerunModel', { model: m.reviewer })}
                    </Button>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
        {!judging && totalFailed > 0 ? <p className="small muted">{t('ai.notJudging')}</p> : null}
      </section>

      <section className="card" aria-labelledby="ai-failures">
        <h2 id="ai-failures">{t('ai.failuresTitle')}</h2>
        {failures.isPending ? (
          <Loading />
        ) : failures.isError ? (
          <ErrorState error={failures.error} onRetry={() => void failures.refetch()} />
        ) : failedRows.length === 0 ? (
          <p className="muted">{t('ai.noFailures')}</p>
        ) : (
          <TableWrap label={t('ai.failuresTitle')}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('ai.project')}</th>
                  <th scope="col">{t('ai.model')}</th>
                  <th scope="col">{t('ai.why')}</th>
                  <th scope="col" className="num">
                    {t('ai.attempts')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {failedRows.map((r) => (
                  <tr key={r.id}>
                    <td>
                      <Link href={projectReviewsHref(event.id, r.project_id)} className="detail-project-link">
                        <strong>{r.project_name}</strong>
                      </Link>
                      <div className="small muted">{r.team_name}</div>
                    </td>
                    <td className="detail-model-name">{r.reviewer}</td>
                    <td className="detail-reason-cell">{r.failure_reason}</td>
                    <td className="num">{fmt.number(r.attempts)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
        <LoadMore query={failures} />
      </section>

      <ConfirmDialog
        open={target !== undefined}
        title={t('ai.rerunTitle')}
        confirmLabel={target ? t('ai.rerunModel', { model: target }) : t('ai.rerunAll')}
        busy={rerun.isPending}
        onConfirm={() => target !== undefined && rerun.mutate(target)}
        onClose={() => {
          if (!rerun.isPending) setTarget(undefined);
        }}
      >
        <p>{t('ai.rerunBody')}</p>
        {rerun.error ? <ProblemAlert error={rerun.error} /> : null}
      </ConfirmDialog>
    </div>
  );
}
