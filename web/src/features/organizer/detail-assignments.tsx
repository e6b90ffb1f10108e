import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { apiPage, get, patch, post, put } from '../../lib/api';
import { Button } from '../../ui/controls';
import { Checkbox, Field } from '../../ui/form';
import { ErrorState, Loading, ProblemAlert } from '../../ui/states';
import { keys, useOrganizerT } from './detail-shared';

// One page of 1000 holds an event's projects here; a larger event lists its first 1000.
const LIMIT = 1000;

/**
 * The reviewing mode of an event: every reviewer reviews every project, or k per project assigned
 * automatically; the assignments table, each project's reviewers editable by hand.
 */
export function AssignmentsPanel({
  eventId,
  reviewers,
  editable,
}: {
  eventId: string;
  reviewers: Array<{ user_id: string; email: string }>;
  editable: boolean;
}) {
  const { t } = useOrganizerT();
  const client = useQueryClient();
  const summary = useQuery({
    queryKey: [...keys.all(eventId), 'assignment-summary'],
    queryFn: ({ signal }) => get('/events/{id}/assignments/summary', { path: { id: eventId }, signal }),
  });
  const list = useQuery({
    queryKey: [...keys.all(eventId), 'assignments'],
    queryFn: ({ signal }) => apiPage('/events/{id}/assignments', { path: { id: eventId }, query: { limit: LIMIT }, signal }),
    enabled: summary.data?.review_mode === 'assigned',
  });
  const [k, setK] = useState('2');
  const [sameDomain, setSameDomain] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: keys.all(eventId) });
  const auto = useMutation({
    mutationFn: () =>
      post('/events/{id}/assignments/auto', { path: { id: eventId }, body: { per_project: Number(k), same_email_domain_conflicts: sameDomain } }),
    onSuccess: refresh,
  });
  const every = useMutation({
    mutationFn: () => patch('/events/{id}/assignments', { path: { id: eventId }, body: { review_mode: 'every' } }),
    onSuccess: refresh,
  });
  const [editing, setEditing] = useState<{ projectId: string; chosen: string[] } | null>(null);
  const save = useMutation({
    mutationFn: (e: { projectId: string; chosen: string[] }) =>
      put('/events/{id}/assignments/{project_id}', { path: { id: eventId, project_id: e.projectId }, body: { reviewer_ids: e.chosen } }),
    onSuccess: async () => {
      setEditing(null);
      await refresh();
    },
  });
  const emailOf = new Map(reviewers.map((r) => [r.user_id, r.email]));

  function submit(e: FormEvent) {
    e.preventDefault();
    auto.mutate();
  }

  if (summary.isPending) return <Loading />;
  if (summary.isError) return <ErrorState error={summary.error} onRetry={() => void summary.refetch()} />;
  const s = summary.data;
  const assigned = s.review_mode === 'assigned';

  return (
    <section className="card stack" aria-labelledby="assignments-title">
      <h2 id="assignments-title">{t('assignments.title')}</h2>
      <p role="status">{assigned ? t('assignments.modeAssigned', { k: s.per_project ?? 0, min: s.min_load, max: s.max_load }) : t('assignments.modeEvery')}</p>
      {assigned && s.projects_short > 0 ? <p className="alert alert-warn">{t('assignments.short', { count: s.projects_short })}</p> : null}
      {editable ? (
        <form className="detail-invite" onSubmit={submit} noValidate>
          <Field label={t('assignments.perProject')} hint={t('assignments.perProjectHint')}>
            <input type="number" min={1} max={20} required value={k} onChange={(e) => setK(e.target.value)} />
          </Field>
          <Checkbox label={t('assignments.sameDomain')} checked={sameDomain} onChange={(e) => setSameDomain(e.target.checked)} />
          <div className="form-actions">
            <Button type="submit" busy={auto.isPending} disabled={!(Number(k) >= 1 && Number(k) <= 20)}>
              {t('assignments.assign')}
            </Button>
            {assigned ? (
              <Button variant="ghost" busy={every.isPending} onClick={() => every.mutate()}>
                {t('assignments.backToEvery')}
              </Button>
            ) : null}
          </div>
        </form>
      ) : null}
      {auto.error ? <ProblemAlert error={auto.error} /> : null}
      {every.error ? <ProblemAlert error={every.error} /> : null}
      {assigned ? (
        list.isPending ? (
          <Loading />
        ) : list.isError ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
        ) : (
          <div className="table-wrap">
            <table className="rtable">
              <caption className="sr-only">{t('assignments.tableCaption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('assignments.project')}</th>
                  <th scope="col">{t('assignments.reviewers')}</th>
                  {editable ? <th scope="col">{t('assignments.actions')}</th> : null}
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((a) => (
                  <tr key={a.project_id}>
                    <th scope="row">
                      {a.project_name} <span className="small muted">{a.team_name}</span>
                    </th>
                    <td>
                      {editing?.projectId === a.project_id ? (
                        <fieldset className="stack">
                          <legend className="sr-only">{t('assignments.editLegend', { project: a.project_name })}</legend>
                          {reviewers.map((r) => (
                            <Checkbox
                              key={r.user_id}
                              label={r.email}
                              checked={editing.chosen.includes(r.user_id)}
                              onChange={(e) =>
                                setEditing({
                                  projectId: a.project_id,
                                  chosen: e.target.checked ? [...editing.chosen, r.user_id] : editing.chosen.filter((id) => id !== r.user_id),
                                })
                              }
                            />
                          ))}
                        </fieldset>
                      ) : (
                        <ul className="detail-plain-list">
                          {a.reviewer_ids.map((id) => (
                            <li key={id}>
                              {emailOf.get(id) ?? id}
                              {a.reviewed_by.includes(id) ? <span className="small muted"> · {t('assignments.reviewed')}</span> : null}
                            </li>
                          ))}
                          {a.manual ? <li className="small muted">{t('assignments.manual')}</li> : null}
                        </ul>
                      )}
                    </td>
                    {editable ? (
                      <td>
                        {editing?.projectId === a.project_id ? (
                          <div className="form-actions">
                            <Button className="btn-small" busy={save.isPending} onClick={() => save.mutate(editing)}>
                              {t('assignments.save')}
                            </Button>
                            <Button variant="ghost" className="btn-small" onClick={() => setEditing(null)}>
                              {t('assignments.cancel')}
                            </Button>
                          </div>
                        ) : (
                          <Button
                            variant="ghost"
                            className="btn-small"
                            aria-label={t('assignments.editLabel', { project: a.project_name })}
                            onClick={() => {
                              save.reset();
                              setEditing({ projectId: a.project_id, chosen: [...a.reviewer_ids] });
                            }}
                          >
                            {t('assignments.edit')}
                          </Button>
                        )}
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : null}
      {save.error ? <ProblemAlert error={save.error} /> : null}
    </section>
  );
}
