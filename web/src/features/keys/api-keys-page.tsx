import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useT } from '../../i18n';
import { ApiProblem, del, get, post, type Answer, type Item } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { useNow } from '../../lib/now';
import { Button, ConfirmDialog, CopyButton, PageHeader } from '../../ui/controls';
import { Field } from '../../ui/form';
import { EmptyState, ErrorState, Loading, ProblemAlert } from '../../ui/states';
import { curlExample, endOfDayIso, keyStatus, todayInputValue, type KeyStatus } from '../shared/key-logic';
import { messages } from './messages';
import { apiBaseOf, useSite } from '../../lib/site';
import { CellLabel } from '../../ui/cell-label';

export type ApiKey = Item<'/api-keys'>;
type CreatedKey = Answer<'/api-keys', 'post'>;

const KEYS = ['api-keys'] as const;
const BADGE: Record<KeyStatus, string> = { active: 'badge-approved', expired: 'badge-ended', revoked: 'badge-rejected' };

export default function ApiKeysPage() {
  const { t } = useT('keys', messages);
  const keys = useQuery({ queryKey: KEYS, queryFn: () => get('/api-keys') });
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  return (
    <div className="stack">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      {created ? <CreatedKeyBox created={created} onDone={() => setCreated(null)} /> : <CreateKeyForm onCreated={(k) => (setCreated(k), setNotice(null))} />}
      <section aria-labelledby="keys-heading" className="stack">
        <h2 id="keys-heading">{t('list.heading')}</h2>
        <div role="status" aria-live="polite">
          {notice ? <p className="alert alert-ok">{notice}</p> : null}
        </div>
        {keys.isPending ? (
          <Loading />
        ) : keys.isError ? (
          <ErrorState error={keys.error} onRetry={() => void keys.refetch()} />
        ) : keys.data.length === 0 ? (
          <EmptyState title={t('empty.title')}>
            <p>{t('empty.body')}</p>
            <p>
              <a href="/api/v1/skill.md">{t('empty.guide')}</a>
            </p>
          </EmptyState>
        ) : (
          <KeyTable keys={keys.data} onRevoked={(name) => setNotice(t('revoke.done', { name }))} />
        )}
      </section>
    </div>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedKey) => void }) {
  const { t } = useT('keys', messages);
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const [nameMissing, setNameMissing] = useState(false);
  const create = useMutation({
    mutationFn: () => {
      const expiresAt = endOfDayIso(expires);
      return post('/api-keys', { body: { name: name.trim(), ...(expiresAt ? { expires_at: expiresAt } : {}) } });
    },
    onSuccess: (key) => {
      setName('');
      setExpires('');
      void client.invalidateQueries({ queryKey: KEYS });
      onCreated(key);
    },
  });
  const problem = create.error instanceof ApiProblem ? create.error : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setNameMissing(true);
      return;
    }
    setNameMissing(false);
    create.mutate();
  };
  const nameError = nameMissing ? t('create.nameRequired') : problem?.fieldError('name');
  const expiresError = problem?.fieldError('expires_at');
  const other = create.error && !nameError && !expiresError ? create.error : null;
  return (
    <section className="card" aria-labelledby="create-key-heading">
      <h2 id="create-key-heading">{t('create.heading')}</h2>
      <form onSubmit={submit} noValidate className="key-form">
        <Field label={t('create.name')} hint={t('create.nameHint')} error={nameError}>
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} autoComplete="off" required />
        </Field>
        <Field label={t('create.expires')} hint={t('create.expiresHint')} error={expiresError}>
          <input type="date" value={expires} min={todayInputValue()} onChange={(e) => setExpires(e.target.value)} />
        </Field>
        <div className="form-actions">
          <Button type="submit" busy={create.isPending}>
            {t('create.submit')}
          </Button>
        </div>
      </form>
      <ProblemAlert error={other} />
    </section>
  );
}

function CreatedKeyBox({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  const { t } = useT('keys', messages);
  const site = useSite();
  const command = curlExample(apiBaseOf(site.data), created.key);
  const heading = useRef<HTMLHeadingElement>(null);
  // The form that had focus is gone: move focus to the new key so keyboard and screen-reader users land on it.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="card once-box stack" aria-labelledby="created-heading">
      <h2 id="created-heading" tabIndex={-1} ref={heading}>
        {t('created.heading', { name: created.name })}
      </h2>
      <p className="alert alert-warn">{t('created.warning')}</p>
      <div className="secret">
        <span className="sr-only">{t('created.keyLabel')}</span>
        <code data-testid="new-key">{created.key}</code>
        <CopyButton text={created.key} label={t('created.copyKey')} />
      </div>
      <div>
        <p>{t('created.tryIt')}</p>
        <pre>
          <code>{command}</code>
        </pre>
        <CopyButton text={command} label={t('created.copyCommand')} />
      </div>
      <div className="form-actions">
        <Button variant="secondary" onClick={onDone}>
          {t('created.done')}
        </Button>
      </div>
    </section>
  );
}

function KeyTable({ keys, onRevoked }: { keys: ApiKey[]; onRevoked: (name: string) => void }) {
  const { t } = useT('keys', messages);
  const f = useFormat();
  const client = useQueryClient();
  const [target, setTarget] = useState<ApiKey | null>(null);
  const revoke = useMutation({
    mutationFn: (k: ApiKey) => del('/api-keys/{id}', { path: { id: k.id } }),
    onSuccess: (_v, k) => {
      setTarget(null);
      onRevoked(k.name);
      void client.invalidateQueries({ queryKey: KEYS });
    },
  });
  const now = useNow();
  return (
    <>
      <div className="table-wrap">
        <table className="rtable">
          <thead>
            <tr>
              <th scope="col">{t('list.name')}</th>
              <th scope="col">{t('list.prefix')}</th>
              <th scope="col">{t('list.scope')}</th>
              <th scope="col">{t('list.created')}</th>
              <th scope="col">{t('list.lastUsed')}</th>
              <th scope="col">{t('list.expires')}</th>
              <th scope="col">{t('list.status')}</th>
              <th scope="col">
                <span className="sr-only">{t('list.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => {
              const status = keyStatus(k, now);
              return (
                <tr key={k.id}>
                  <td>
                    <CellLabel label={t('list.name')} />
                    <strong>{k.name}</strong>
                  </td>
                  <td>
                    <CellLabel label={t('list.prefix')} />
                    <code className="key-code">{k.prefix}…</code>
                  </td>
                  <td>
                    <CellLabel label={t('list.scope')} />
                    {t(`scope.${k.scope}`, { defaultValue: k.scope })}
                  </td>
                  <td>
                    <CellLabel label={t('list.created')} />
                    {f.date(k.created_at)}
                  </td>
                  <td>
                    <CellLabel label={t('list.lastUsed')} />
                    {k.last_used_at ? f.relative(k.last_used_at, now) : t('list.never')}
                  </td>
                  <td>
                    <CellLabel label={t('list.expires')} />
                    {k.expires_at ? f.date(k.expires_at) : t('list.noExpiry')}
                  </td>
                  <td>
                    <CellLabel label={t('list.status')} />
                    <span className={`badge ${BADGE[status]}`}>{t(`status.${status}`)}</span>
                  </td>
                  <td>
                    {status !== 'active' ? null : (
                      <Button
                        variant="danger"
                        className="btn-small"
                        onClick={() => (revoke.reset(), setTarget(k))}
                        aria-label={t('list.revokeKey', { name: k.name })}
                      >
                        {t('list.revoke')}
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
        title={t('revoke.title', { name: target?.name ?? '' })}
        confirmLabel={t('revoke.confirm')}
        variant="danger"
        busy={revoke.isPending}
        onConfirm={() => target && revoke.mutate(target)}
        onClose={() => setTarget(null)}
      >
        <p>{t('revoke.body')}</p>
        <ProblemAlert error={revoke.error} />
      </ConfirmDialog>
    </>
  );
}
