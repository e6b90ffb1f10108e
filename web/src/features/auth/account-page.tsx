import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem, del, get, patch, post, setCsrfToken, type Item } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { SESSION_KEY, useSession, type SessionUser } from '../../lib/session';
import { Button, ConfirmDialog, PageHeader } from '../../ui/controls';
import { Field } from '../../ui/form';
import { EmptyState, ErrorState, Loading, ProblemAlert } from '../../ui/states';
import { useSite } from '../../lib/site';
import { browserTimeZone, passwordProblem, summarizeUserAgent } from './logic';
import { messages } from './messages';
import './auth.css';

type SessionRow = Item<'/auth/sessions'>;

const SESSIONS_KEY = ['auth-sessions'] as const;

export default function AccountPage() {
  const { t } = useT('auth', messages);
  const { user } = useSession();
  if (!user) return <Loading />;
  return (
    <div className="account">
      <PageHeader title={t('account.title')} />
      <div className="account-grid">
        <Profile user={user} />
        <Settings />
        <ChangePassword />
        <Sessions />
      </div>
    </div>
  );
}

function Profile({ user }: { user: SessionUser }) {
  const { t } = useT('auth', messages);
  const f = useFormat();
  return (
    <section className="card" aria-labelledby="profile-title">
      <h2 id="profile-title">{t('account.profile')}</h2>
      <dl className="facts">
        <dt>{t('account.email')}</dt>
        <dd>{user.email}</dd>
        <dt>{t('account.name')}</dt>
        <dd>{user.name ? user.name : <span className="muted">{t('account.noName')}</span>}</dd>
        <dt>{t('account.role')}</dt>
        <dd>{t(`roles.${user.role}`, { ns: 'common' })}</dd>
        <dt>{t('account.since')}</dt>
        <dd>{f.date(user.created_at)}</dd>
      </dl>
      <h3>{t('account.keysTitle')}</h3>
      <p className="muted small">{t('account.keysText')}</p>
      <Link className="btn btn-secondary" href="/api-keys">
        {t('account.keysLink')}
      </Link>
    </section>
  );
}

const SETTINGS_KEY = ['me-settings'] as const;

function zoneChoices(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes(current) ? zones : [current, ...zones];
}

function Settings() {
  const { t } = useT('auth', messages);
  const client = useQueryClient();
  const settings = useQuery({ queryKey: SETTINGS_KEY, queryFn: ({ signal }) => get('/me/settings', { signal }) });
  if (settings.isPending) return <Loading />;
  if (settings.isError) return <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />;
  return (
    <SettingsForm
      key={JSON.stringify(settings.data)}
      initial={settings.data}
      onSaved={() => {
        void client.invalidateQueries({ queryKey: SETTINGS_KEY });
        void client.invalidateQueries({ queryKey: SESSION_KEY });
      }}
      t={t}
    />
  );
}

type SettingsData = Awaited<ReturnType<typeof get<'/me/settings'>>>;

function SettingsForm({ initial, onSaved, t }: { initial: SettingsData; onSaved: () => void; t: ReturnType<typeof useT>['t'] }) {
  const [name, setName] = useState(initial.name ?? '');
  const [language, setLanguage] = useState<'en' | 'zh'>(initial.language);
  // A person who never chose a zone starts from the browser's.
  const [zone, setZone] = useState(initial.time_zone ?? browserTimeZone());
  const [mails, setMails] = useState(initial.notifications);
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      patch('/me/settings', {
        body: { ...(name.trim() ? { name: name.trim() } : {}), language, time_zone: zone, notifications: mails },
      }),
    onSuccess: () => {
      setSaved(true);
      onSaved();
    },
  });
  const problem = save.error instanceof ApiProblem ? save.error : null;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    save.mutate();
  };
  const switches = [
    ['registration', t('account.mailRegistration')],
    ['team', t('account.mailTeam')],
    ['results', t('account.mailResults')],
  ] as const;
  return (
    <section className="card" aria-labelledby="settings-title">
      <h2 id="settings-title">{t('account.settings')}</h2>
      <p className="muted small">{t('account.settingsIntro')}</p>
      <form onSubmit={onSubmit} noValidate>
        {saved ? (
          <div className="alert alert-ok" role="status">
            {t('account.settingsSaved')}
          </div>
        ) : null}
        {save.error && !problem?.fieldError('name') && !problem?.fieldError('time_zone') ? <ProblemAlert error={save.error} /> : null}
        <Field label={t('account.displayName')} hint={t('account.displayNameHint')} error={problem?.fieldError('name')}>
          <input name="name" autoComplete="nickname" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label={t('account.language')}>
          <select name="language" value={language} onChange={(e) => setLanguage(e.target.value === 'zh' ? 'zh' : 'en')}>
            <option value="en">English</option>
            <option value="zh">中文</option>
          </select>
        </Field>
        <Field label={t('account.timeZone')} hint={t('account.timeZoneHint')} error={problem?.fieldError('time_zone')}>
          <select name="time_zone" value={zone} onChange={(e) => setZone(e.target.value)}>
            {zoneChoices(zone).map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </Field>
        <fieldset className="account-mails">
          <legend>{t('account.mails')}</legend>
          {switches.map(([key, label]) => (
            <label key={key} className="checkbox">
              <input type="checkbox" name={`mail_${key}`} checked={mails[key]} onChange={(e) => setMails({ ...mails, [key]: e.target.checked })} /> {label}
            </label>
          ))}
        </fieldset>
        <div className="form-actions">
          <Button type="submit" busy={save.isPending}>
            {t('account.settingsSave')}
          </Button>
        </div>
      </form>
    </section>
  );
}

function ChangePassword() {
  const { t } = useT('auth', messages);
  const client = useQueryClient();
  const site = useSite();
  const minLength = site.data?.password_min_length ?? 8;
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [checks, setChecks] = useState<{ current?: string; next?: string }>({});
  const change = useMutation({
    mutationFn: (body: { current_password: string; new_password: string }) => post('/auth/password', { body }),
    onSuccess: () => {
      setCurrent('');
      setNext('');
      void client.invalidateQueries({ queryKey: SESSIONS_KEY });
      void client.invalidateQueries({ queryKey: SESSION_KEY });
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found: { current?: string; next?: string } = {};
    if (!current) found.current = t('checks.passwordRequired');
    if (passwordProblem(next, minLength)) found.next = t('checks.tooShort', { count: minLength });
    setChecks(found);
    if (!found.current && !found.next) change.mutate({ current_password: current, new_password: next });
  };
  const problem = change.error instanceof ApiProblem ? change.error : null;
  // The server answers a wrong current password as a validation problem on current_password.
  const wrongCurrent = problem && (problem.code === 'invalid_credentials' || problem.fieldError('current_password')) ? t('account.wrongCurrent') : undefined;
  const currentError = checks.current ?? wrongCurrent ?? problem?.fieldError('current_password');
  const nextError = checks.next ?? problem?.fieldError('new_password');
  return (
    <section className="card" aria-labelledby="password-title">
      <h2 id="password-title">{t('account.password')}</h2>
      <p className="muted small">{t('account.passwordIntro')}</p>
      <form onSubmit={onSubmit} noValidate>
        {change.isSuccess ? (
          <div className="alert alert-ok" role="status">
            {t('account.passwordChanged')}
          </div>
        ) : null}
        {change.error && !currentError && !nextError ? <ProblemAlert error={change.error} /> : null}
        <Field label={t('fields.currentPassword')} error={currentError}>
          <input
            type="password"
            name="current_password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </Field>
        <Field label={t('fields.newPassword')} hint={t('fields.passwordHint', { count: minLength })} error={nextError}>
          <input
            type="password"
            name="new_password"
            autoComplete="new-password"
            required
            minLength={minLength}
            value={next}
            onChange={(e) => setNext(e.target.value)}
          />
        </Field>
        <div className="form-actions">
          <Button type="submit" busy={change.isPending}>
            {t('account.passwordSubmit')}
          </Button>
        </div>
      </form>
    </section>
  );
}

function useDeviceName() {
  const { t } = useT('auth', messages);
  return (ua: string | null): string => {
    const d = summarizeUserAgent(ua);
    if (d.tool) return d.tool;
    if (d.browser && d.os) return t('account.on', { browser: d.browser, os: d.os });
    return d.browser ?? d.os ?? t('account.unknownDevice');
  };
}

function Sessions() {
  const { t } = useT('auth', messages);
  const f = useFormat();
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const deviceName = useDeviceName();
  const [target, setTarget] = useState<SessionRow | null>(null);
  const [notice, setNotice] = useState(false);
  const sessions = useQuery({ queryKey: SESSIONS_KEY, queryFn: ({ signal }) => get('/auth/sessions', { signal }) });
  const revoke = useMutation({
    mutationFn: (row: SessionRow) => del('/auth/sessions/{id}', { path: { id: row.id } }),
    onSuccess: (_answer, row) => {
      setTarget(null);
      if (row.current) {
        // This browser's own session is gone: forget it here too and go to sign in.
        setCsrfToken(null);
        client.clear();
        client.setQueryData(SESSION_KEY, null);
        navigate('/signin', { replace: true });
        return;
      }
      setNotice(true);
      void client.invalidateQueries({ queryKey: SESSIONS_KEY });
    },
  });
  const rows = [...(sessions.data ?? [])].sort((a, b) => Number(b.current) - Number(a.current));
  return (
    <section className="card account-wide" aria-labelledby="sessions-title">
      <h2 id="sessions-title">{t('account.sessions')}</h2>
      <p className="muted small">{t('account.sessionsIntro')}</p>
      {notice ? (
        <div className="alert alert-ok" role="status">
          {t('account.revoked')}
        </div>
      ) : null}
      {sessions.isPending ? (
        <Loading />
      ) : sessions.isError ? (
        <ErrorState error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title={t('account.noSessions')} />
      ) : (
        <ul className="session-list">
          {rows.map((row) => {
            const name = deviceName(row.user_agent);
            return (
              <li key={row.id} className={row.current ? 'session session-current' : 'session'}>
                <div>
                  <div className="session-device">
                    <span>{name}</span>
                    {row.current ? <span className="badge badge-current">{t('account.thisDevice')}</span> : null}
                  </div>
                  <dl className="session-meta">
                    <div>
                      <dt>{t('account.ip')}</dt>
                      <dd>{row.ip ?? '–'}</dd>
                    </div>
                    <div>
                      <dt>{t('account.created')}</dt>
                      <dd>
                        <time dateTime={row.created_at}>{f.dateTime(row.created_at)}</time>
                      </dd>
                    </div>
                    <div>
                      <dt>{t('account.lastSeen')}</dt>
                      <dd>{row.last_seen_at ? <time dateTime={row.last_seen_at}>{f.relative(row.last_seen_at)}</time> : '–'}</dd>
                    </div>
                  </dl>
                </div>
                <Button variant="secondary" className="btn-small" aria-label={t('account.revokeLabel', { device: name })} onClick={() => setTarget(row)}>
                  {t('account.revoke')}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={target !== null}
        title={t('account.revokeTitle')}
        confirmLabel={t('account.revoke')}
        variant="danger"
        busy={revoke.isPending}
        onConfirm={() => target && revoke.mutate(target)}
        onClose={() => {
          setTarget(null);
          revoke.reset();
        }}
      >
        <p>{target?.current ? t('account.revokeCurrentText') : t('account.revokeText')}</p>
        {target ? <p className="muted small">{deviceName(target.user_agent)}</p> : null}
        {revoke.error ? <ProblemAlert error={revoke.error} /> : null}
      </ConfirmDialog>
    </section>
  );
}
