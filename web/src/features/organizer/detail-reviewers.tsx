import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { currentLanguage } from '../../i18n';
import { ApiProblem, del, get, post } from '../../lib/api';
import { useNow } from '../../lib/now';
import { useDetailFormat as useFormat } from './detail-format';
import { Button, ConfirmDialog } from '../../ui/controls';
import { Field } from '../../ui/form';
import { ErrorState, Loading, ProblemAlert } from '../../ui/states';
import type { TabProps } from './detail-types';
import { fraction } from './detail-leaderboard-math';
import { keys, useLiveInterval, LiveNote, ProgressBar, useOrganizerT, useStats } from './detail-shared';
import { AssignmentsPanel } from './detail-assignments';

type Pending = { kind: 'remove'; id: string; email: string } | { kind: 'withdraw'; id: string; email: string };

export default function ReviewersTab({ event }: TabProps) {
  const { t } = useOrganizerT();
  const fmt = useFormat();
  const client = useQueryClient();
  const stats = useStats(event.id);
  const live = useLiveInterval(event.id);
  // Reviewers of one event are few: one page of 1000 holds them and their invitations.
  const list = useQuery({
    queryKey: [...keys.all(event.id), 'reviewers'],
    queryFn: ({ signal }) => get('/events/{id}/reviewers', { path: { id: event.id }, query: { limit: 1000 }, signal }),
    refetchInterval: live,
  });
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  // The invited person has no settings yet: the mail goes in the language chosen here (the page's by default).
  const [language, setLanguage] = useState<'en' | 'zh'>(currentLanguage() === 'zh-CN' ? 'zh' : 'en');
  const [invited, setInvited] = useState<string | null>(null);
  const invite = useMutation({
    mutationFn: (body: { email: string; name?: string; language: 'en' | 'zh' }) => post('/events/{id}/reviewers', { path: { id: event.id }, body }),
    onSuccess: async (answer) => {
      setInvited(answer.name ? `${answer.name} <${answer.email}>` : answer.email);
      setEmail('');
      setName('');
      await client.invalidateQueries({ queryKey: keys.all(event.id) });
    },
  });
  const [pending, setPending] = useState<Pending | null>(null);
  const drop = useMutation({
    mutationFn: (p: Pending) =>
      p.kind === 'remove'
        ? del('/events/{id}/reviewers/{userId}', { path: { id: event.id, userId: p.id } })
        : del('/events/{id}/reviewer-invitations/{invitationId}', { path: { id: event.id, invitationId: p.id } }),
    onSuccess: async () => {
      setPending(null);
      await client.invalidateQueries({ queryKey: keys.all(event.id) });
    },
  });

  const [reminded, setReminded] = useState<string | null>(null);
  const remind = useMutation({
    mutationFn: (r: { id: string; email: string }) => post('/events/{id}/reviewers/{userId}/remind', { path: { id: event.id, userId: r.id } }),
    onSuccess: async (_answer, r) => {
      setReminded(t('reviewers.reminded', { email: r.email }));
      await client.invalidateQueries({ queryKey: keys.all(event.id) });
    },
  });
  const remindAll = useMutation({
    mutationFn: () => post('/events/{id}/reviewer-reminders', { path: { id: event.id } }),
    onSuccess: async (answer) => {
      const n = answer.reminded.length;
      setReminded(n > 0 ? t('reviewers.remindAllDone', { count: n }) : t('reviewers.remindAllNone'));
      await client.invalidateQueries({ queryKey: keys.all(event.id) });
    },
  });
  const remindError = remind.error ?? remindAll.error;
  const judging = event.status === 'judging';

  function submit(e: FormEvent) {
    e.preventDefault();
    setInvited(null);
    invite.mutate({ email: email.trim(), ...(name.trim() ? { name: name.trim() } : {}), language });
  }

  const emailError = invite.error instanceof ApiProblem ? invite.error.fieldError('email') : undefined;
  const nameError = invite.error instanceof ApiProblem ? invite.error.fieldError('name') : undefined;
  const progress = new Map((stats.data?.reviewers ?? []).map((r) => [r.user_id, r]));
  const now = useNow();

  return (
    <div className="stack">
      <LiveNote event={event} />
      <section className="card" aria-labelledby="invite-title">
        <h2 id="invite-title">{t('reviewers.inviteTitle')}</h2>
        <form className="detail-invite" onSubmit={submit} noValidate>
          <Field label={t('reviewers.email')} hint={t('reviewers.emailHint')} error={emailError}>
            <input type="email" autoComplete="off" required value={email} maxLength={254} onChange={(e) => setEmail(e.target.value)} />
          </Field>
          <Field label={t('reviewers.name')} hint={t('reviewers.nameHint')} error={nameError}>
            <input type="text" autoComplete="off" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label={t('reviewers.mailLanguage')}>
            <select value={language} onChange={(e) => setLanguage(e.target.value === 'zh' ? 'zh' : 'en')}>
              <option value="en">English</option>
              <option value="zh">中文</option>
            </select>
          </Field>
          <div className="form-actions">
            <Button type="submit" busy={invite.isPending} disabled={!email.trim()}>
              {t('reviewers.invite')}
            </Button>
          </div>
        </form>
        {invite.error && !emailError ? <ProblemAlert error={invite.error} /> : null}
        {invited ? (
          <div className="alert alert-ok" role="status">
            {t('reviewers.invited', { email: invited })}
          </div>
        ) : null}
      </section>

      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <>
          <section className="card" aria-labelledby="reviewers-title">
            <div className="spread">
              <h2 id="reviewers-title">{t('reviewers.reviewersTitle')}</h2>
              {judging && list.data.reviewers.some((r) => r.open_reviews > 0) ? (
                <Button
                  variant="secondary"
                  busy={remindAll.isPending}
                  onClick={() => {
                    remind.reset();
                    remindAll.reset();
                    setReminded(null);
                    remindAll.mutate();
                  }}
                >
                  {t('reviewers.remindAll')}
                </Button>
              ) : null}
            </div>
            {judging ? <p className="small muted">{t('reviewers.remindHint')}</p> : null}
            {reminded ? (
              <div className="alert alert-ok" role="status">
                {reminded}
              </div>
            ) : null}
            {remindError ? <ProblemAlert error={remindError} /> : null}
            {list.data.reviewers.length === 0 ? (
              <p className="muted">{t('reviewers.noReviewers')}</p>
            ) : (
              <ul className="detail-people">
                {list.data.reviewers.map((r) => {
                  const p = progress.get(r.user_id);
                  const reviewed = p?.reviewed ?? r.reviews_count;
                  const assigned = p?.assigned ?? 0;
                  const text = t('reviewers.progress', { reviewed: fmt.number(reviewed), assigned: fmt.number(assigned) });
                  return (
                    <li key={r.user_id} className="detail-person">
                      <div className="detail-person-main">
                        {r.name ? <strong>{r.name}</strong> : null}
                        <strong className={r.name ? 'detail-email small' : 'detail-email'}>{r.email}</strong>
                        <span className="small muted">{t('reviewers.added', { date: fmt.date(r.added_at) })}</span>
                        <ProgressBar value={fraction(reviewed, assigned)} label={`${r.email}: ${text}`} tone="ok" />
                        <span className="small">{text}</span>
                        <span className="small muted">
                          {r.open_reviews > 0 ? t('reviewers.open', { count: r.open_reviews }) : t('reviewers.openNone')}
                          {r.last_reminded_at ? ` · ${t('reviewers.lastReminded', { date: fmt.dateTime(r.last_reminded_at) })}` : ''}
                        </span>
                      </div>
                      {judging && r.open_reviews > 0 ? (
                        <Button
                          variant="secondary"
                          className="btn-small"
                          aria-label={t('reviewers.remindLabel', { email: r.email })}
                          busy={remind.isPending && remind.variables?.id === r.user_id}
                          onClick={() => {
                            remind.reset();
                            remindAll.reset();
                            setReminded(null);
                            remind.mutate({ id: r.user_id, email: r.email });
                          }}
                        >
                          {t('reviewers.remind')}
                        </Button>
                      ) : null}
                      <Button
                        variant="ghost"
                        className="btn-small"
                        aria-label={t('reviewers.removeLabel', { email: r.email })}
                        onClick={() => {
                          drop.reset();
                          setPending({ kind: 'remove', id: r.user_id, email: r.email });
                        }}
                      >
                        {t('reviewers.remove')}
                      </Button>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
          <AssignmentsPanel eventId={event.id} reviewers={list.data.reviewers} editable={event.status !== 'ended' && event.status !== 'cancelled'} />
          <section className="card" aria-labelledby="invitations-title">
            <h2 id="invitations-title">{t('reviewers.invitationsTitle')}</h2>
            {list.data.invitations.length === 0 ? (
              <p className="muted">{t('reviewers.noInvitations')}</p>
            ) : (
              <ul className="detail-people">
                {list.data.invitations.map((inv) => {
                  const expired = inv.status === 'expired' || new Date(inv.expires_at).getTime() <= now;
                  return (
                    <li key={inv.id} className="detail-person">
                      <div className="detail-person-main">
                        {inv.name ? <strong>{inv.name}</strong> : null}
                        <strong className={inv.name ? 'detail-email small' : 'detail-email'}>{inv.email}</strong>
                        <span className="small muted">{expired ? t('reviewers.expired') : t('reviewers.expires', { date: fmt.dateTime(inv.expires_at) })}</span>
                      </div>
                      <Button
                        variant="ghost"
                        className="btn-small"
                        aria-label={t('reviewers.withdrawLabel', { email: inv.email })}
                        onClick={() => {
                          drop.reset();
                          setPending({ kind: 'withdraw', id: inv.id, email: inv.email });
                        }}
                      >
                        {t('reviewers.withdraw')}
                      </Button>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        </>
      )}

      <ConfirmDialog
        open={pending !== null}
        title={pending ? t(pending.kind === 'remove' ? 'reviewers.removeTitle' : 'reviewers.withdrawTitle', { email: pending.email }) : ''}
        confirmLabel={pending?.kind === 'remove' ? t('reviewers.remove') : t('reviewers.withdraw')}
        variant="danger"
        busy={drop.isPending}
        onConfirm={() => pending && drop.mutate(pending)}
        onClose={() => {
          if (!drop.isPending) setPending(null);
        }}
      >
        <p>{pending?.kind === 'remove' ? t('reviewers.removeBody') : t('reviewers.withdrawBody')}</p>
        {drop.error ? <ProblemAlert error={drop.error} /> : null}
      </ConfirmDialog>
    </div>
  );
}
