import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Redirect } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem, apiPage, del, get, patch, post, type Answer, type Item } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { useNow } from '../../lib/now';
import { useSession, type Role } from '../../lib/session';
import { Button, ConfirmDialog, CopyButton, PageHeader, TabNav } from '../../ui/controls';
import { Field } from '../../ui/form';
import { EmptyState, ErrorState, Loading, NotFound, ProblemAlert } from '../../ui/states';
import { codeStatus, endOfDayIso, signupLink, todayInputValue, type CodeStatus } from '../shared/key-logic';
import { publicUrlOf, useSite } from '../../lib/site';
import { messages } from './messages';
import { AuditList, useAuditT } from '../shared/audit-list';
import { CellLabel } from '../../ui/cell-label';
import './admin.css';

type AdminUser = Item<'/admin/users'>;
type InviteCode = Item<'/admin/invite-codes'>;

const ROLES: Role[] = ['user', 'organizer', 'admin'];
const CODE_BADGE: Record<CodeStatus, string> = { active: 'badge-approved', expired: 'badge-ended', revoked: 'badge-rejected', used_up: 'badge-ended' };

export default function AdminPage({ params }: { params: { tab?: string } }) {
  const { t } = useT('admin', messages);
  const tab = params.tab;
  if (tab === undefined) return <Redirect to="/admin/users" replace />;
  if (tab !== 'users' && tab !== 'invite-codes' && tab !== 'audit') return <NotFound />;
  return (
    <div className="stack">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <TabNav
        label={t('tabs.label')}
        tabs={[
          { href: '/admin/users', label: t('tabs.users') },
          { href: '/admin/invite-codes', label: t('tabs.codes') },
          { href: '/admin/audit', label: t('tabs.audit') },
        ]}
      />
      {tab === 'users' ? <UsersTab /> : tab === 'audit' ? <AuditTab /> : <CodesTab />}
    </div>
  );
}

// ---------------------------------------------------------------- audit

/** The whole audit log (every event, and site-wide actions), newest first, "load more" paging. */
function AuditTab() {
  const { t } = useAuditT();
  const common = useT();
  const log = useInfiniteQuery({
    queryKey: ['admin-audit'],
    queryFn: ({ pageParam }) => apiPage('/admin/audit', { query: { limit: 50, cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  if (log.isPending) return <Loading />;
  if (log.isError) return <ErrorState error={log.error} onRetry={() => void log.refetch()} />;
  return (
    <section className="stack" aria-label={t('title')}>
      <p className="muted">{t('intro')}</p>
      <AuditList entries={log.data.pages.flatMap((p) => p.items)} showEvent />
      {log.hasNextPage ? (
        <div>
          <Button variant="secondary" busy={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
            {common.t('actions.loadMore')}
          </Button>
        </div>
      ) : null}
    </section>
  );
}

// ---------------------------------------------------------------- users

function UsersTab() {
  const { t } = useT('admin', messages);
  const common = useT();
  const f = useFormat();
  const { user: me } = useSession();
  const client = useQueryClient();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [role, setRole] = useState<'' | Role>('');
  const [notice, setNotice] = useState<string | null>(null);
  const [target, setTarget] = useState<AdminUser | null>(null);
  const users = useInfiniteQuery({
    queryKey: ['admin-users', q, role],
    queryFn: ({ pageParam }) => apiPage('/admin/users', { query: { q, role: role || undefined, limit: 50, cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const update = useMutation({
    mutationFn: (v: { user: AdminUser; body: { role?: Role; disabled?: boolean } }) => patch('/admin/users/{id}', { path: { id: v.user.id }, body: v.body }),
    onMutate: () => setNotice(null),
    onSuccess: (saved, v) => {
      setTarget(null);
      if (v.body.role) setNotice(t('users.roleSaved', { email: saved.email, role: common.t(`roles.${saved.role}`) }));
      else setNotice(t(saved.disabled_at ? 'users.disabledDone' : 'users.enabledDone', { email: saved.email }));
      void client.invalidateQueries({ queryKey: ['admin-users'] });
    },
  });
  const search = (e: FormEvent) => {
    e.preventDefault();
    setQ(text.trim());
  };
  const rows = users.data?.pages.flatMap((p) => p.items) ?? [];
  const pendingId = update.isPending ? update.variables?.user.id : undefined;
  return (
    <section className="stack" aria-labelledby="users-heading">
      <h2 id="users-heading" className="sr-only">
        {t('users.heading')}
      </h2>
      <form className="card admin-filters" onSubmit={search} role="search">
        <Field label={t('users.search')} hint={t('users.searchHint')}>
          <input type="search" value={text} onChange={(e) => setText(e.target.value)} autoComplete="off" />
        </Field>
        <Field label={t('users.role')}>
          <select value={role} onChange={(e) => setRole(e.target.value as '' | Role)}>
            <option value="">{t('users.allRoles')}</option>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {common.t(`roles.${r}`)}
              </option>
            ))}
          </select>
        </Field>
        <div className="form-actions">
          <Button type="submit">{t('users.apply')}</Button>
        </div>
      </form>
      <div role="status" aria-live="polite">
        {notice ? <p className="alert alert-ok">{notice}</p> : null}
      </div>
      {update.error && !target ? <ProblemAlert error={update.error} /> : null}
      {users.isPending ? (
        <Loading />
      ) : users.isError ? (
        <ErrorState error={users.error} onRetry={() => void users.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title={t('users.empty')} />
      ) : (
        <>
          <div className="table-wrap">
            <table className="rtable">
              <thead>
                <tr>
                  <th scope="col">{t('users.person')}</th>
                  <th scope="col" id="users-role-col">
                    {t('users.role')}
                  </th>
                  <th scope="col">{t('users.joined')}</th>
                  <th scope="col">{t('users.status')}</th>
                  <th scope="col">
                    <span className="sr-only">{t('users.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((u) => (
                  <UserRow
                    key={u.id}
                    user={u}
                    self={u.id === me?.id}
                    busy={pendingId === u.id}
                    joined={f.date(u.created_at)}
                    onRole={(r) => update.mutate({ user: u, body: { role: r } })}
                    onToggle={() => (update.reset(), setTarget(u))}
                  />
                ))}
              </tbody>
            </table>
          </div>
          {users.hasNextPage ? (
            <Button variant="secondary" busy={users.isFetchingNextPage} onClick={() => void users.fetchNextPage()}>
              {common.t('actions.loadMore')}
            </Button>
          ) : null}
        </>
      )}
      <ConfirmDialog
        open={target !== null}
        title={t(target?.disabled_at ? 'users.enableTitle' : 'users.disableTitle', { email: target?.email ?? '' })}
        confirmLabel={t(target?.disabled_at ? 'users.enable' : 'users.disable')}
        variant={target?.disabled_at ? 'primary' : 'danger'}
        busy={update.isPending}
        onConfirm={() => target && update.mutate({ user: target, body: { disabled: !target.disabled_at } })}
        onClose={() => setTarget(null)}
      >
        <p>{t(target?.disabled_at ? 'users.enableBody' : 'users.disableBody')}</p>
        {target ? <ProblemAlert error={update.error} /> : null}
      </ConfirmDialog>
    </section>
  );
}

function UserRow({
  user: u,
  self,
  busy,
  joined,
  onRole,
  onToggle,
}: {
  user: AdminUser;
  self: boolean;
  busy: boolean;
  joined: string;
  onRole: (role: Role) => void;
  onToggle: () => void;
}) {
  const { t } = useT('admin', messages);
  const common = useT();
  const id = useId();
  return (
    <tr>
      <td>
        <CellLabel label={t('users.person')} />
        <span className="person">
          {u.name ? <strong>{u.name}</strong> : null}
          <span id={`${id}-email`} className={u.name ? 'muted small' : 'strong'}>
            {u.email}
          </span>
          {self ? <span className="muted small">({t('users.you')})</span> : null}
        </span>
      </td>
      <td>
        <label htmlFor={`${id}-role`} className="cell-label">
          {t('users.role')}
        </label>
        <select
          id={`${id}-role`}
          // Named by visible text: the column header (or the phone's cell label) and the person's e-mail.
          aria-labelledby={`users-role-col ${id}-email`}
          aria-describedby={self ? `${id}-self` : undefined}
          value={u.role}
          disabled={self || busy}
          onChange={(e) => onRole(e.target.value as Role)}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {common.t(`roles.${r}`)}
            </option>
          ))}
        </select>
        {self ? (
          <span id={`${id}-self`} className="sr-only">
            {t('users.ownRow')}
          </span>
        ) : null}
      </td>
      <td>
        <CellLabel label={t('users.joined')} />
        {joined}
      </td>
      <td>
        <CellLabel label={t('users.status')} />
        <span className={`badge ${u.disabled_at ? 'badge-rejected' : 'badge-approved'}`}>{t(u.disabled_at ? 'users.disabled' : 'users.active')}</span>
      </td>
      <td>
        <Button
          variant={u.disabled_at ? 'secondary' : 'danger'}
          className="btn-small"
          disabled={self}
          title={self ? t('users.ownRow') : undefined}
          aria-label={t(u.disabled_at ? 'users.enableOf' : 'users.disableOf', { email: u.email })}
          onClick={onToggle}
        >
          {t(u.disabled_at ? 'users.enable' : 'users.disable')}
        </Button>
      </td>
    </tr>
  );
}

// ---------------------------------------------------------------- invitation codes

type CreatedCode = Answer<'/admin/invite-codes', 'post'>;

function CodesTab() {
  const { t } = useT('admin', messages);
  const site = useSite();
  const codes = useQuery({ queryKey: ['invite-codes'], queryFn: () => get('/admin/invite-codes') });
  const [created, setCreated] = useState<CreatedCode | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const mode = site.data?.signup_mode;
  return (
    <section className="stack" aria-labelledby="codes-heading">
      {mode ? (
        <div className={`alert ${mode === 'invite' ? 'alert-info' : 'alert-warn'}`}>
          <p>
            <strong>{t('codes.mode', { mode: t(`codes.modeName.${mode}`) })}</strong>
          </p>
          <p>{t(mode === 'open' ? 'codes.modeOpen' : mode === 'invite' ? 'codes.modeInvite' : 'codes.modeClosed')}</p>
          <p className="small">{t('codes.modeHint')}</p>
        </div>
      ) : null}
      {created ? (
        <CreatedCodeBox created={created} publicUrl={publicUrlOf(site.data)} onDone={() => setCreated(null)} />
      ) : (
        <CreateCodeForm onCreated={(c) => (setCreated(c), setNotice(null))} />
      )}
      <h2 id="codes-heading">{t('codes.heading')}</h2>
      <div role="status" aria-live="polite">
        {notice ? <p className="alert alert-ok">{notice}</p> : null}
      </div>
      {codes.isPending ? (
        <Loading />
      ) : codes.isError ? (
        <ErrorState error={codes.error} onRetry={() => void codes.refetch()} />
      ) : codes.data.length === 0 ? (
        <EmptyState title={t('codes.empty')} />
      ) : (
        <CodeTable codes={codes.data} onRevoked={(prefix) => setNotice(t('codes.revoked', { prefix }))} />
      )}
    </section>
  );
}

function CreateCodeForm({ onCreated }: { onCreated: (c: CreatedCode) => void }) {
  const { t } = useT('admin', messages);
  const client = useQueryClient();
  const [note, setNote] = useState('');
  const [uses, setUses] = useState('1');
  const [expires, setExpires] = useState('');
  const [usesInvalid, setUsesInvalid] = useState(false);
  const create = useMutation({
    mutationFn: () => {
      const expiresAt = endOfDayIso(expires);
      return post('/admin/invite-codes', {
        body: { max_uses: Number(uses), ...(note.trim() ? { note: note.trim() } : {}), ...(expiresAt ? { expires_at: expiresAt } : {}) },
      });
    },
    onSuccess: (c) => {
      setNote('');
      setUses('1');
      setExpires('');
      void client.invalidateQueries({ queryKey: ['invite-codes'] });
      onCreated(c);
    },
  });
  const problem = create.error instanceof ApiProblem ? create.error : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(uses);
    if (!Number.isInteger(n) || n < 1 || n > 10_000) {
      setUsesInvalid(true);
      return;
    }
    setUsesInvalid(false);
    create.mutate();
  };
  const noteError = problem?.fieldError('note');
  const usesError = usesInvalid ? t('codes.maxUsesInvalid') : problem?.fieldError('max_uses');
  const expiresError = problem?.fieldError('expires_at');
  return (
    <section className="card" aria-labelledby="create-code-heading">
      <h2 id="create-code-heading">{t('codes.createHeading')}</h2>
      <form onSubmit={submit} noValidate className="code-form">
        <Field label={t('codes.note')} hint={t('codes.noteHint')} error={noteError}>
          <input value={note} onChange={(e) => setNote(e.target.value)} maxLength={200} autoComplete="off" />
        </Field>
        <Field label={t('codes.maxUses')} hint={t('codes.maxUsesHint')} error={usesError}>
          <input type="number" inputMode="numeric" min={1} max={10000} step={1} value={uses} onChange={(e) => setUses(e.target.value)} required />
        </Field>
        <Field label={t('codes.expires')} hint={t('codes.expiresHint')} error={expiresError}>
          <input type="date" value={expires} min={todayInputValue()} onChange={(e) => setExpires(e.target.value)} />
        </Field>
        <div className="form-actions">
          <Button type="submit" busy={create.isPending}>
            {t('codes.submit')}
          </Button>
        </div>
      </form>
      <ProblemAlert error={create.error && !noteError && !usesError && !expiresError ? create.error : null} />
    </section>
  );
}

function CreatedCodeBox({ created, publicUrl, onDone }: { created: CreatedCode; publicUrl: string; onDone: () => void }) {
  const { t } = useT('admin', messages);
  const link = signupLink(publicUrl, created.code);
  const heading = useRef<HTMLHeadingElement>(null);
  // The form that had focus is gone: move focus to the new code.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="card once-box stack" aria-labelledby="created-code-heading">
      <h2 id="created-code-heading" tabIndex={-1} ref={heading}>
        {t('codes.createdHeading')}
      </h2>
      <p className="alert alert-warn">{t('codes.warning')}</p>
      <div className="secret">
        <span className="sr-only">{t('codes.codeLabel')}</span>
        <code data-testid="new-code">{created.code}</code>
        <CopyButton text={created.code} label={t('codes.copyCode')} />
      </div>
      <div>
        <p>{t('codes.link')}</p>
        <pre>
          <code data-testid="signup-link">{link}</code>
        </pre>
        <CopyButton text={link} label={t('codes.copyLink')} />
      </div>
      <div className="form-actions">
        <Button variant="secondary" onClick={onDone}>
          {t('codes.done')}
        </Button>
      </div>
    </section>
  );
}

function CodeTable({ codes, onRevoked }: { codes: InviteCode[]; onRevoked: (prefix: string) => void }) {
  const { t } = useT('admin', messages);
  const f = useFormat();
  const client = useQueryClient();
  const [target, setTarget] = useState<InviteCode | null>(null);
  const revoke = useMutation({
    mutationFn: (c: InviteCode) => del('/admin/invite-codes/{id}', { path: { id: c.id } }),
    onSuccess: (_v, c) => {
      setTarget(null);
      onRevoked(c.prefix);
      void client.invalidateQueries({ queryKey: ['invite-codes'] });
    },
  });
  const now = useNow();
  return (
    <>
      <div className="table-wrap">
        <table className="rtable">
          <thead>
            <tr>
              <th scope="col">{t('codes.prefix')}</th>
              <th scope="col">{t('codes.noteCol')}</th>
              <th scope="col">{t('codes.uses')}</th>
              <th scope="col">{t('codes.expiresCol')}</th>
              <th scope="col">{t('codes.created')}</th>
              <th scope="col">{t('codes.status')}</th>
              <th scope="col">
                <span className="sr-only">{t('codes.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {codes.map((c) => {
              const status = codeStatus(c, now);
              return (
                <tr key={c.id}>
                  <td>
                    <CellLabel label={t('codes.prefix')} />
                    <code className="key-code">{c.prefix}…</code>
                  </td>
                  <td>
                    <CellLabel label={t('codes.noteCol')} />
                    {c.note || '–'}
                  </td>
                  <td>
                    <CellLabel label={t('codes.uses')} />
                    {t('codes.usesOf', { uses: f.number(c.uses, 0), max: f.number(c.max_uses, 0) })}
                  </td>
                  <td>
                    <CellLabel label={t('codes.expiresCol')} />
                    {c.expires_at ? f.date(c.expires_at) : t('codes.noExpiry')}
                  </td>
                  <td>
                    <CellLabel label={t('codes.created')} />
                    {f.date(c.created_at)}
                  </td>
                  <td>
                    <CellLabel label={t('codes.status')} />
                    <span className={`badge ${CODE_BADGE[status]}`}>{t(`codes.statusName.${status}`)}</span>
                  </td>
                  <td>
                    {status !== 'active' ? null : (
                      <Button
                        variant="danger"
                        className="btn-small"
                        aria-label={t('codes.revokeOf', { prefix: c.prefix })}
                        onClick={() => (revoke.reset(), setTarget(c))}
                      >
                        {t('codes.revoke')}
                      </Button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        open={target !== null}
        title={t('codes.revokeTitle', { prefix: target?.prefix ?? '' })}
        confirmLabel={t('codes.revokeConfirm')}
        variant="danger"
        busy={revoke.isPending}
        onConfirm={() => target && revoke.mutate(target)}
        onClose={() => setTarget(null)}
      >
        <p>{t('codes.revokeBody')}</p>
        <ProblemAlert error={revoke.error} />
      </ConfirmDialog>
    </>
  );
}
