import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useT } from '../../i18n';
import { put, type Answer } from '../../lib/api';
import { Button } from '../../ui/controls';
import { Field } from '../../ui/form';
import { ProblemAlert } from '../../ui/states';
import { useDetailFormat as useFormat } from './detail-format';
import { messages } from './project-flags-messages';

type Flag = Answer<'/events/{id}/projects/{project_id}/reviews'>['flags'][number];

/** What screening (quoted) and the build-window checks found in a project's submission, and the organizer's "checked" with a note. */
export function ProjectFlags({
  eventId,
  projectId,
  flags,
  queryKey,
}: {
  eventId: string;
  projectId: string;
  flags: readonly Flag[];
  queryKey: readonly unknown[];
}) {
  const { t } = useT('organizer-flags', messages);
  return (
    <section className="card stack" aria-labelledby="pr-flags">
      <h2 id="pr-flags">{t('title')}</h2>
      {flags.length === 0 ? (
        <p className="muted">{t('none')}</p>
      ) : (
        <>
          <p className="small muted">{t('intro')}</p>
          <ul className="detail-list">
            {flags.map((f) => (
              <FlagItem key={f.id} eventId={eventId} projectId={projectId} flag={f} queryKey={queryKey} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function FlagItem({ eventId, projectId, flag: f, queryKey }: { eventId: string; projectId: string; flag: Flag; queryKey: readonly unknown[] }) {
  const { t } = useT('organizer-flags', messages);
  const fmt = useFormat();
  const client = useQueryClient();
  const [note, setNote] = useState('');
  const labels: Record<string, string> = {
    'project.name': t('sourceName'),
    'project.description': t('sourceDescription'),
    'repository.readme': t('sourceReadme'),
    repo_created_before_start: t('sourceCreated'),
    first_commit_before_start: t('sourceFirstCommit'),
    giant_commit: t('sourceGiant'),
    fork: t('sourceFork'),
    duplicate_repository: t('sourceDuplicate'),
  };
  const source = labels[f.source] ?? f.source;
  const buildWindow = f.kind === 'build_window';
  // A passage the patterns missed and the operator's screening model named (INJECTION_CLASSIFIER).
  const classifier = !buildWindow && f.detail?.startsWith('classifier:') ? f.detail.slice('classifier:'.length) : null;
  const change = useMutation({
    mutationFn: (body: { status: 'open' | 'checked'; note?: string }) =>
      put('/events/{id}/projects/{project_id}/flags/{flag_id}', { path: { id: eventId, project_id: projectId, flag_id: f.id }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: [...queryKey] }),
  });
  return (
    <li className="detail-item stack">
      <div className="spread">
        <span>
          <span className="small muted">{buildWindow ? t('kindBuildWindow') : t('kindScreening')} · </span>
          <strong>{source}</strong>
        </span>
        <span className={`badge ${f.status === 'checked' ? 'badge-approved' : 'badge-pending'}`}>{f.status === 'checked' ? t('checked') : t('open')}</span>
      </div>
      {/* A screening finding quotes the submission; a build-window finding is the check's own sentence. */}
      {buildWindow ? <p>{f.evidence}</p> : <blockquote className="flag-evidence">{f.evidence}</blockquote>}
      {classifier ? <p className="small muted">{t('byClassifier', { model: classifier })}</p> : null}
      {change.error ? <ProblemAlert error={change.error} /> : null}
      {f.status === 'checked' ? (
        <div className="spread">
          <p className="small">
            <span className="muted">{f.checked_at ? t('checkedBy', { date: fmt.dateTime(f.checked_at) }) : null}</span>
            {f.note ? <> · {f.note}</> : null}
          </p>
          <Button variant="ghost" className="btn-small" busy={change.isPending} onClick={() => change.mutate({ status: 'open' })}>
            {t('reopen')}
          </Button>
        </div>
      ) : (
        <form
          className="row flag-check"
          onSubmit={(e) => {
            e.preventDefault();
            change.mutate({ status: 'checked', ...(note.trim() ? { note: note.trim() } : {}) });
          }}
        >
          <Field label={t('note')}>
            <input value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
          </Field>
          <Button type="submit" variant="secondary" busy={change.isPending} aria-label={t('markCheckedLabel', { source })}>
            {t('markChecked')}
          </Button>
        </form>
      )}
    </li>
  );
}
