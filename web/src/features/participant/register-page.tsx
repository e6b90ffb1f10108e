import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem, post, type Body } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { useSession } from '../../lib/session';
import { Button, PageHeader } from '../../ui/controls';
import { Field } from '../../ui/form';
import { ErrorState, Loading, ProblemAlert } from '../../ui/states';
import { EventNotFound, useEvent } from '../shared/event-data';
import { myRegistrationKey, useMyRegistration, useRegistrationForm, type MyRegistration, type RegistrationForm } from './data';
import { messages } from './messages';
import './participant.css';

type Answers = Record<string, string>;

/** /hackathons/:id/register: the organizer's form, filled on the web (the same POST /events/:id/register agents use). */
export default function RegisterPage({ params }: { params: { id: string } }) {
  const { t } = useT('participant', messages);
  const event = useEvent(params.id);
  const form = useRegistrationForm(params.id);
  const mine = useMyRegistration(params.id);
  if (event.isPending || form.isPending || mine.isPending) return <Loading />;
  if (event.isError) {
    if (event.error instanceof ApiProblem && event.error.status === 404) return <EventNotFound />;
    return <ErrorState error={event.error} onRetry={() => void event.refetch()} />;
  }
  if (form.isError) return <ErrorState error={form.error} onRetry={() => void form.refetch()} />;
  if (mine.isError) return <ErrorState error={mine.error} onRetry={() => void mine.refetch()} />;
  const reg = mine.data;
  const canReapply = reg?.status === 'rejected' && reg.reapply_until !== null;
  const title = t('register.title', { name: event.data.name });
  if (reg && !canReapply && reg.status !== 'withdrawn') {
    return (
      <section className="narrow stack">
        <PageHeader title={title} />
        <div className="alert alert-info">{t('register.already', { team: reg.team_name })}</div>
        <p>
          <Link className="btn btn-primary" href={`/hackathons/${params.id}/team`}>
            {t('register.toTeam')}
          </Link>
        </p>
      </section>
    );
  }
  if (!form.data.open) {
    return (
      <section className="narrow stack">
        <PageHeader title={title} />
        <div className="alert alert-warn">{t('register.closed')}</div>
        <p>
          <Link href={`/hackathons/${params.id}`}>{t('common.backToEvent')}</Link>
        </p>
      </section>
    );
  }
  return <RegisterForm eventId={params.id} title={title} form={form.data} previous={reg} />;
}

function RegisterForm({ eventId, title, form, previous }: { eventId: string; title: string; form: RegistrationForm; previous: MyRegistration | null }) {
  const { t } = useT('participant', messages);
  const f = useFormat();
  const { user } = useSession();
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [teamName, setTeamName] = useState(previous?.team_name ?? '');
  const [contact, setContact] = useState(previous?.contact_email ?? '');
  const [github, setGithub] = useState(previous?.github_url ?? '');
  const [track, setTrack] = useState(previous?.track_id ?? (form.tracks.length === 1 ? form.tracks[0]!.id : ''));
  const [answers, setAnswers] = useState<Answers>(() => Object.fromEntries(Object.entries(previous?.fields ?? {}).map(([k, v]) => [k, String(v)])));
  const [checks, setChecks] = useState<Record<string, string>>({});

  const register = useMutation({
    mutationFn: (body: Body<'/events/{id}/register', 'post'>) => post('/events/{id}/register', { path: { id: eventId }, body }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: myRegistrationKey(eventId) });
      await client.invalidateQueries({ queryKey: ['team', eventId] });
      navigate(`/hackathons/${eventId}/team`);
    },
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!teamName.trim()) found.team_name = t('register.checks.required');
    if (form.tracks.length > 0 && !track) found.track_id = t('register.checks.track');
    for (const field of form.fields) {
      const value = answers[field.key]?.trim() ?? '';
      if (field.required && !value) found[`fields.${field.key}`] = t('register.checks.required');
      else if (field.type === 'number' && value && !Number.isFinite(Number(value))) found[`fields.${field.key}`] = t('register.checks.number');
    }
    setChecks(found);
    if (Object.keys(found).length > 0) {
      // Focus the first field that needs attention (screen readers hear its error).
      requestAnimationFrame(() => document.querySelector<HTMLElement>('.field-invalid input, .field-invalid select, .field-invalid textarea')?.focus());
      return;
    }
    const fields: Record<string, string | number> = {};
    for (const field of form.fields) {
      const value = answers[field.key]?.trim() ?? '';
      if (!value) continue;
      fields[field.key] = field.type === 'number' ? Number(value) : value;
    }
    const body: Body<'/events/{id}/register', 'post'> = { team_name: teamName.trim() };
    if (contact.trim()) body.contact_email = contact.trim();
    if (github.trim()) body.github_url = github.trim();
    if (track) body.track_id = track;
    if (Object.keys(fields).length > 0) body.fields = fields;
    register.mutate(body);
  };

  const problem = register.error instanceof ApiProblem ? register.error : null;
  const errorOf = (field: string): string | undefined => {
    if (checks[field]) return checks[field];
    if (field === 'team_name' && problem?.code === 'team_name_taken') return t('register.nameTaken');
    return problem?.errors.length ? problem.fieldError(field) : undefined;
  };
  const handled = problem && (problem.code === 'team_name_taken' || (problem.code === 'validation_failed' && problem.errors.length > 0));
  const required = (
    <span className="required-mark" aria-hidden="true">
      {' '}
      *
    </span>
  );
  const requiredSr = <span className="sr-only"> ({t('register.requiredSr')})</span>;

  return (
    <section className="medium stack">
      <PageHeader title={title} subtitle={t('register.deadline', { date: f.dateTime(form.timeline.registration_deadline) })} />
      {previous?.status === 'rejected' ? (
        <div className="alert alert-warn">
          {t('register.reapply')}
          {previous.reason ? ` ${t('register.reason', { reason: previous.reason })}` : ''}
        </div>
      ) : null}
      <form className="card stack" onSubmit={onSubmit} noValidate aria-labelledby="register-form-title">
        <h2 id="register-form-title">{t('register.formTitle')}</h2>
        <p className="muted small">{t('register.requiredNote')}</p>
        {register.error && !handled ? <ProblemAlert error={register.error} /> : null}
        <Field
          label={
            <>
              {t('register.teamName')}
              {required}
              {requiredSr}
            </>
          }
          hint={t('register.teamNameHint')}
          error={errorOf('team_name')}
        >
          <input type="text" name="team_name" maxLength={80} required value={teamName} onChange={(e) => setTeamName(e.target.value)} />
        </Field>
        {form.tracks.length > 0 ? (
          <fieldset className={`track-choice${errorOf('track_id') ? ' field-invalid' : ''}`} aria-describedby={errorOf('track_id') ? 'track-error' : undefined}>
            <legend>
              {t('register.track')}
              {required}
              {requiredSr}
            </legend>
            {form.tracks.map((tr) => (
              <label key={tr.id} className="track-option">
                <input type="radio" name="track_id" value={tr.id} checked={track === tr.id} onChange={() => setTrack(tr.id)} />
                <span>
                  <strong>{tr.name}</strong>
                  {tr.prize ? <span className="muted small"> · {tr.prize}</span> : null}
                </span>
              </label>
            ))}
            {errorOf('track_id') ? (
              <p className="field-error" id="track-error">
                {errorOf('track_id')}
              </p>
            ) : null}
          </fieldset>
        ) : null}
        {form.fields.map((field) => {
          const key = `fields.${field.key}`;
          const value = answers[field.key] ?? '';
          const set = (v: string) => setAnswers((a) => ({ ...a, [field.key]: v }));
          const label = (
            <>
              {field.label || field.key}
              {field.required ? (
                <>
                  {required}
                  {requiredSr}
                </>
              ) : null}
            </>
          );
          return (
            <Field key={field.key} label={label} error={errorOf(key)}>
              {field.type === 'textarea' ? (
                <textarea name={key} rows={4} maxLength={2000} required={field.required} value={value} onChange={(e) => set(e.target.value)} />
              ) : (
                <input
                  type={field.type === 'number' ? 'number' : field.type === 'url' ? 'url' : field.type === 'email' ? 'email' : 'text'}
                  inputMode={field.type === 'number' ? 'decimal' : undefined}
                  name={key}
                  maxLength={field.type === 'number' ? undefined : 2000}
                  required={field.required}
                  value={value}
                  onChange={(e) => set(e.target.value)}
                />
              )}
            </Field>
          );
        })}
        <Field label={t('register.github')} hint={t('register.githubHint')} error={errorOf('github_url')}>
          <input
            type="url"
            name="github_url"
            maxLength={2048}
            placeholder="https://github.com/owner/repo"
            value={github}
            onChange={(e) => setGithub(e.target.value)}
          />
        </Field>
        <Field label={t('register.contact')} hint={t('register.contactHint', { email: user?.email ?? '' })} error={errorOf('contact_email')}>
          <input type="email" name="contact_email" autoComplete="email" maxLength={254} value={contact} onChange={(e) => setContact(e.target.value)} />
        </Field>
        <p className="muted small">{form.auto_approve ? t('register.autoApprove') : t('register.manualApprove')}</p>
        <div className="form-actions">
          <Button type="submit" busy={register.isPending}>
            {previous?.status === 'rejected' ? t('register.submitAgain') : t('register.submit')}
          </Button>
          <Link href={`/hackathons/${eventId}`}>{t('common.backToEvent')}</Link>
        </div>
      </form>
    </section>
  );
}
