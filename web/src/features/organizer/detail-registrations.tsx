import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState } from 'react';
import { useT } from '../../i18n';
import { post, type Query } from '../../lib/api';
import { useDetailFormat as useFormat } from './detail-format';
import { Button, ConfirmDialog, StatusBadge } from '../../ui/controls';
import { Field } from '../../ui/form';
import { EmptyState, ErrorState, Loading, useProblemText } from '../../ui/states';
import type { Registration, TabProps } from './detail-types';
import { runEach, type Outcome } from './detail-bulk';
import { keys, LiveNote, LoadMore, trackName, useOrganizerT, usePagedList } from './detail-shared';

type Decision = 'approve' | 'reject';
type RegistrationStatus = NonNullable<Query<'/events/{id}/registrations'>['status']>;

export default function RegistrationsTab({ event }: TabProps) {
  const { t } = useOrganizerT();
  const common = useT();
  const problemText = useProblemText();
  const client = useQueryClient();
  const [status, setStatus] = useState<RegistrationStatus | ''>('');
  const [track, setTrack] = useState('');
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  // The search asks the server once typing pauses, not on every key.
  useEffect(() => {
    const timer = setTimeout(() => setQ(search.trim()), 300);
    return () => clearTimeout(timer);
  }, [search]);
  const list = usePagedList(event.id, 'registrations', '/events/{id}/registrations', {
    status: status || undefined,
    track_id: track || undefined,
    q: q || undefined,
  });
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<{ decision: Decision; ids: string[] } | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome<Registration>[] | null>(null);

  const byId = useMemo(() => new Map(rows.map((r) => [r.id, r])), [rows]);
  const chosen = [...selected].filter((rid) => byId.has(rid));
  const allShown = rows.length > 0 && rows.every((r) => selected.has(r.id));

  function toggle(rid: string, on: boolean) {
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(rid);
      else next.delete(rid);
      return next;
    });
  }

  async function decide(decision: Decision, ids: string[]) {
    setBusy(true);
    const items = ids.map((rid) => byId.get(rid)).filter((r): r is Registration => r !== undefined);
    const body = decision === 'reject' && reason.trim() ? { reason: reason.trim() } : {};
    const results = await runEach(items, (r) => post(`/events/{id}/registrations/{rid}/${decision}`, { path: { id: event.id, rid: r.id }, body }));
    setBusy(false);
    setDialog(null);
    setReason('');
    setOutcome(results);
    setSelected((prev) => {
      const next = new Set(prev);
      for (const o of results) if (o.ok) next.delete(o.item.id);
      return next;
    });
    await client.invalidateQueries({ queryKey: keys.all(event.id) });
  }

  function ask(decision: Decision, ids: string[]) {
    setOutcome(null);
    setReason('');
    setDialog({ decision, ids });
  }

  const filtered = Boolean(status || track || q);
  const reasonId = useId();
  const failed = outcome?.filter((o) => !o.ok) ?? [];
  const succeeded = outcome?.filter((o) => o.ok).length ?? 0;
  const dialogTeams = dialog ? dialog.ids.map((rid) => byId.get(rid)?.team_name ?? rid).join(', ') : '';

  return (
    <div className="stack">
      <LiveNote event={event} />
      <fieldset className="detail-filters">
        <legend className="sr-only">{t('registrations.filters')}</legend>
        <Field label={t('registrations.status')}>
          <select value={status} onChange={(e) => setStatus(e.target.value as RegistrationStatus | '')}>
            <option value="">{t('registrations.anyStatus')}</option>
            {(['pending', 'approved', 'rejected'] as const).map((s) => (
              <option key={s} value={s}>
                {common.t(`registrationStatus.${s}`)}
              </option>
            ))}
          </select>
        </Field>
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
        <Field label={t('registrations.search')}>
          <input type="search" value={search} maxLength={80} onChange={(e) => setSearch(e.target.value)} />
        </Field>
      </fieldset>

      {outcome ? (
        <div className={failed.length ? 'alert alert-warn' : 'alert alert-ok'} role="status">
          {succeeded > 0 ? <p>{t('registrations.done', { count: succeeded })}</p> : null}
          {failed.length ? (
            <>
              <p>{t('registrations.failedList')}</p>
              <ul>
                {failed.map((o) => (
                  <li key={o.item.id}>
                    <strong>{o.item.team_name}</strong>: {problemText(o.error)}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : null}

      <div className="detail-bulk spread">
        <label className="check">
          <input
            type="checkbox"
            checked={allShown}
            disabled={rows.length === 0}
            onChange={(e) => setSelected(e.target.checked ? new Set(rows.map((r) => r.id)) : new Set())}
          />
          <span>{t('registrations.selectAll')}</span>
        </label>
        <div className="row">
          <span className="muted" aria-live="polite">
            {t('registrations.selected', { count: chosen.length })}
          </span>
          <Button variant="primary" disabled={chosen.length === 0} onClick={() => ask('approve', chosen)}>
            {t('registrations.approveSelected')}
          </Button>
          <Button variant="danger" disabled={chosen.length === 0} onClick={() => ask('reject', chosen)}>
            {t('registrations.rejectSelected')}
          </Button>
        </div>
      </div>

      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title={filtered ? t('registrations.empty') : t('registrations.emptyAll')} />
      ) : (
        <>
          <p className="small muted">{t('registrations.count', { count: rows.length })}</p>
          <ul className="detail-list" aria-label={t('detail.tabs.registrations')}>
            {rows.map((r) => (
              <RegistrationRow
                key={r.id}
                event={event}
                registration={r}
                checked={selected.has(r.id)}
                onToggle={(on) => toggle(r.id, on)}
                onDecide={(d) => (d === 'reject' ? ask('reject', [r.id]) : void decide('approve', [r.id]))}
                disabled={busy}
              />
            ))}
          </ul>
          <LoadMore query={list} />
        </>
      )}

      <ConfirmDialog
        open={dialog !== null}
        title={dialog ? t(dialog.decision === 'approve' ? 'registrations.approveTitle' : 'registrations.rejectTitle', { count: dialog.ids.length }) : ''}
        confirmLabel={dialog?.decision === 'reject' ? t('registrations.reject') : t('registrations.approve')}
        variant={dialog?.decision === 'reject' ? 'danger' : 'primary'}
        busy={busy}
        onConfirm={() => dialog && void decide(dialog.decision, dialog.ids)}
        onClose={() => !busy && setDialog(null)}
      >
        <p>{t('registrations.decisionBody', { teams: dialogTeams })}</p>
        {dialog?.decision === 'reject' ? (
          <div className="field">
            <label htmlFor={reasonId}>{t('registrations.reasonLabel')}</label>
            <textarea
              id={reasonId}
              value={reason}
              maxLength={1000}
              rows={3}
              onChange={(e) => setReason(e.target.value)}
              aria-describedby={`${reasonId}-hint`}
            />
            <p className="field-hint" id={`${reasonId}-hint`}>
              {t('registrations.reasonHint')}
            </p>
          </div>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}

function RegistrationRow({
  event,
  registration: r,
  checked,
  onToggle,
  onDecide,
  disabled,
}: {
  event: TabProps['event'];
  registration: Registration;
  checked: boolean;
  onToggle: (on: boolean) => void;
  onDecide: (d: Decision) => void;
  disabled: boolean;
}) {
  const { t } = useOrganizerT();
  const fmt = useFormat();
  const checkId = useId();
  const answers = Object.entries(r.fields).filter(([, v]) => v !== null && v !== '');
  const labelOf = (key: string) => event.registration_config.fields.find((f) => f.key === key)?.label ?? key;
  // The team's members (name, e-mail, role), as the list and its CSV carry them.
  const members = r.members;
  return (
    <li className="detail-item">
      <div className="detail-item-head">
        <input
          id={checkId}
          type="checkbox"
          className="detail-check"
          checked={checked}
          onChange={(e) => onToggle(e.target.checked)}
          aria-label={t('registrations.select', { team: r.team_name })}
        />
        <div className="detail-item-title">
          <strong>{r.team_name}</strong> <StatusBadge status={r.status} kind="registrationStatus" />
          {r.attempt !== undefined && r.attempt > 1 ? <span className="small muted"> {t('registrations.reapplied', { attempt: r.attempt })}</span> : null}
          {r.final ? <span className="small muted"> {t('registrations.rejectedFinal')}</span> : null}
          <div className="small muted">
            {event.tracks.length > 0 ? <span>{trackName(event, r.track_id, t('detail.noTrack'))} · </span> : null}
            <span>
              {t('registrations.contact')}: <a href={`mailto:${r.contact_email}`}>{r.contact_email}</a>
            </span>
            <span>
              {' '}
              · {t('registrations.registeredAt')} {fmt.dateTime(r.created_at)}
            </span>
          </div>
          {members.length > 0 ? (
            <div className="small registration-members">
              {t('registrations.members')}:{' '}
              {members.map((m, i) => (
                <span key={m.email}>
                  {i > 0 ? ', ' : null}
                  <span title={m.email}>{m.name}</span>
                  {m.role === 'leader' ? <span className="muted"> ({t('registrations.leaderMark')})</span> : null}{' '}
                  <a className="muted" href={`mailto:${m.email}`}>
                    {m.email}
                  </a>
                </span>
              ))}
            </div>
          ) : null}
        </div>
        <div className="row detail-item-actions">
          {r.status !== 'approved' ? (
            <Button
              variant="secondary"
              className="btn-small"
              disabled={disabled}
              onClick={() => onDecide('approve')}
              aria-label={t('registrations.approveTeam', { team: r.team_name })}
            >
              {t('registrations.approve')}
            </Button>
          ) : null}
          {r.status !== 'rejected' ? (
            <Button
              variant="ghost"
              className="btn-small"
              disabled={disabled}
              onClick={() => onDecide('reject')}
              aria-label={t('registrations.rejectTeam', { team: r.team_name })}
            >
              {t('registrations.reject')}
            </Button>
          ) : null}
        </div>
      </div>
      {r.reason ? (
        <p className="small detail-reason">
          {t('registrations.reason')}: {r.reason}
        </p>
      ) : null}
      <details className="detail-more-info">
        <summary>{t('registrations.answers')}</summary>
        {answers.length === 0 && !r.github_url ? (
          <p className="small muted">{t('registrations.noAnswers')}</p>
        ) : (
          <dl className="facts">
            {r.github_url ? (
              <>
                <dt>{t('registrations.github')}</dt>
                <dd>
                  <a href={r.github_url} rel="noreferrer noopener" target="_blank">
                    {r.github_url}
                  </a>
                </dd>
              </>
            ) : null}
            {answers.map(([k, v]) => (
              <FragmentRow key={k} label={labelOf(k)} value={String(v)} />
            ))}
          </dl>
        )}
      </details>
    </li>
  );
}

function FragmentRow({ label, value }: { label: string; value: string }) {
  const isUrl = /^https?:\/\//i.test(value);
  return (
    <>
      <dt>{label}</dt>
      <dd>
        {isUrl ? (
          <a href={value} rel="noreferrer noopener" target="_blank">
            {value}
          </a>
        ) : (
          value
        )}
      </dd>
    </>
  );
}
