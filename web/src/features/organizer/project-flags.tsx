import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useT } from '../../i18n';
import { put, type Answer } from '../../lib/api';
import { Button } from '../../ui/controls';
import { Field } from '../../ui/form';
import { ProblemAlert } from '../../ui/states';
import { useDetailFormat as useFormat } from './detail-format';
import { defineMessages } from '../../i18n/messages';

type Flag = Answer<'/events/{id}/projects/{project_id}/reviews'>['flags'][number];

const messages = defineMessages({
  en: {
    title: 'Screening flags',
    intro: 'Sentences of the submission that addressed the evaluator. They were cut from what the AI models read; the rest was reviewed as usual.',
    none: 'Screening found nothing in this submission.',
    sourceName: 'Project name',
    sourceDescription: 'Description',
    sourceReadme: 'README',
    open: 'Open',
    checked: 'Checked',
    checkedBy: 'Checked {{date}}',
    note: 'Note (optional)',
    markChecked: 'Mark checked',
    reopen: 'Open again',
    markCheckedLabel: 'Mark checked: flag in {{source}}',
  },
  'zh-CN': {
    title: '筛查标记',
    intro: '提交内容中针对评审的语句。这些语句已从 AI 模型读取的内容中删去，其余部分照常评审。',
    none: '筛查没有在此提交中发现问题。',
    sourceName: '作品名称',
    sourceDescription: '作品介绍',
    sourceReadme: 'README',
    open: '待查看',
    checked: '已查看',
    checkedBy: '查看于 {{date}}',
    note: '备注（可选）',
    markChecked: '标记为已查看',
    reopen: '重新打开',
    markCheckedLabel: '标记为已查看：{{source}} 中的标记',
  },
});

/** What screening found in a project's submission, each quoted, and the organizer's "checked" with a note. */
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
  };
  const source = labels[f.source] ?? f.source;
  const change = useMutation({
    mutationFn: (body: { status: 'open' | 'checked'; note?: string }) =>
      put('/events/{id}/projects/{project_id}/flags/{flag_id}', { path: { id: eventId, project_id: projectId, flag_id: f.id }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: [...queryKey] }),
  });
  return (
    <li className="detail-item stack">
      <div className="spread">
        <strong>{source}</strong>
        <span className={`badge ${f.status === 'checked' ? 'badge-approved' : 'badge-pending'}`}>{f.status === 'checked' ? t('checked') : t('open')}</span>
      </div>
      <blockquote className="flag-evidence">{f.evidence}</blockquote>
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
