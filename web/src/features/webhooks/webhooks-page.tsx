import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useT } from '../../i18n';
import { ApiProblem, del, get, post, type Answer, type Item } from '../../lib/api';
import { Button, ConfirmDialog, CopyButton, PageHeader } from '../../ui/controls';
import { Field } from '../../ui/form';
import { EmptyState, ErrorState, Loading, ProblemAlert } from '../../ui/states';
import { messages } from './messages';

export const WEBHOOK_EVENT_TYPES = [
  'registration.created',
  'registration.decided',
  'project.submitted',
  'project.updated',
  'review.failed',
  'judging.started',
  'results.published',
] as const;

/** A subscription as GET /webhooks lists it, and the answer that creates one: route answers of the generated schema. */
type Webhook = Item<'/webhooks'>;
type Created = Answer<'/webhooks', 'post'>;

const KEY = ['webhooks'] as const;

/** The caller's webhook subscriptions: add one (its secret shown once), test, follow deliveries, retry, delete. */
export default function WebhooksPage() {
  const { t } = useT('webhooks', messages);
  const hooks = useQuery({ queryKey: KEY, queryFn: () => get('/webhooks') });
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <div className="stack">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      {secret ? (
        <section className="card once-box stack" aria-labelledby="secret-heading">
          <h2 id="secret-heading">{t('created.heading')}</h2>
          <p className="alert alert-warn">{t('created.warning')}</p>
          <div className="secret">
            <code data-testid="webhook-secret">{secret}</code>
            <CopyButton text={secret} label={t('created.copy')} />
          </div>
          <div className="form-actions">
            <Button variant="secondary" onClick={() => setSecret(null)}>
              {t('created.done')}
            </Button>
          </div>
        </section>
      ) : (
        <CreateForm onCreated={setSecret} />
      )}
      <section aria-labelledby="hooks-heading" className="stack">
        <h2 id="hooks-heading">{t('list.heading')}</h2>
        {hooks.isPending ? (
          <Loading />
        ) : hooks.isError ? (
          <ErrorState error={hooks.error} onRetry={() => void hooks.refetch()} />
        ) : hooks.data.length === 0 ? (
          <EmptyState title={t('empty.title')}>
            <p>{t('empty.body')}</p>
          </EmptyState>
        ) : (
          hooks.data.map((h) => <HookCard key={h.id} hook={h} />)
        )}
      </section>
    </div>
  );
}

function CreateForm({ onCreated }: { onCreated: (secret: string) => void }) {
  const { t } = useT('webhooks', messages);
  const client = useQueryClient();
  const [url, setUrl] = useState('');
  const [eventId, setEventId] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [noEvents, setNoEvents] = useState(false);
  const create = useMutation({
    mutationFn: () =>
      post('/webhooks', { body: { url: url.trim(), events: events as Created['events'], ...(eventId.trim() ? { event_id: eventId.trim() } : {}) } }),
    onSuccess: (w) => {
      setUrl('');
      setEventId('');
      setEvents([]);
      void client.invalidateQueries({ queryKey: KEY });
      onCreated(w.secret);
    },
  });
  const problem = create.error instanceof ApiProblem ? create.error : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setNoEvents(events.length === 0);
    if (events.length > 0) create.mutate();
  };
  const toggle = (kind: string) => setEvents((cur) => (cur.includes(kind) ? cur.filter((k) => k !== kind) : [...cur, kind]));
  const urlError = problem?.fieldError('url');
  const other = create.error && !urlError ? create.error : null;
  return (
    <section className="card" aria-labelledby="create-hook-heading">
      <h2 id="create-hook-heading">{t('create.heading')}</h2>
      <form onSubmit={submit} noValidate className="stack">
        <Field label={t('create.url')} hint={t('create.urlHint')} error={urlError}>
          <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} maxLength={2000} required placeholder="https://" />
        </Field>
        <fieldset>
          <legend>{t('create.events')}</legend>
          {WEBHOOK_EVENT_TYPES.map((kind) => (
            <label key={kind} className="check">
              <input type="checkbox" checked={events.includes(kind)} onChange={() => toggle(kind)} /> <code>{kind}</code>
            </label>
          ))}
          {noEvents ? <p className="field-error">{t('create.pickOne')}</p> : null}
        </fieldset>
        <Field label={t('create.eventId')} hint={t('create.eventIdHint')} error={problem?.fieldError('event_id')}>
          <input value={eventId} onChange={(e) => setEventId(e.target.value)} maxLength={64} autoComplete="off" />
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

function HookCard({ hook }: { hook: Webhook }) {
  const { t } = useT('webhooks', messages);
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const deliveriesKey = ['webhooks', hook.id, 'deliveries'];
  const deliveries = useQuery({
    queryKey: deliveriesKey,
    queryFn: () => get('/webhooks/{id}/deliveries', { path: { id: hook.id }, query: { limit: 20 } }),
    enabled: open,
    // A delivery still on its way is looked at again until it is delivered or has failed.
    refetchInterval: (q) => (q.state.data?.some((d) => d.status === 'queued' || d.status === 'running') ? 1000 : false),
  });
  const refresh = () => void client.invalidateQueries({ queryKey: KEY });
  const test = useMutation({
    mutationFn: () => post('/webhooks/{id}/test', { path: { id: hook.id } }),
    onSuccess: () => (setOpen(true), refresh(), void client.invalidateQueries({ queryKey: deliveriesKey })),
  });
  const retry = useMutation({
    mutationFn: (id: string) => post('/webhooks/{id}/deliveries/{delivery_id}/retry', { path: { id: hook.id, delivery_id: id } }),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: () => del('/webhooks/{id}', { path: { id: hook.id } }), onSuccess: () => (setConfirm(false), refresh()) });
  return (
    <article className="card stack" aria-label={hook.url}>
      <p>
        <code>{hook.url}</code>{' '}
        <span className={`badge ${hook.enabled ? 'badge-approved' : 'badge-rejected'}`}>{hook.enabled ? t('list.enabled') : t('list.disabled')}</span>
      </p>
      {hook.disabled_reason ? <p className="alert alert-warn">{hook.disabled_reason}</p> : null}
      <p>
        {t('list.events')}:{' '}
        {hook.events.map((e) => (
          <code key={e}>{e} </code>
        ))}
        {hook.event_id ? <code>({hook.event_id})</code> : null}
      </p>
      <div className="form-actions">
        <Button variant="secondary" className="btn-small" busy={test.isPending} onClick={() => test.mutate()}>
          {t('list.test')}
        </Button>
        <Button variant="secondary" className="btn-small" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          {t('list.deliveries')}
        </Button>
        <Button variant="danger" className="btn-small" onClick={() => setConfirm(true)}>
          {t('list.delete')}
        </Button>
      </div>
      {test.isSuccess ? <p role="status">{t('list.tested')}</p> : null}
      <ProblemAlert error={test.error ?? retry.error} />
      {open ? (
        deliveries.isPending ? (
          <Loading />
        ) : deliveries.isError ? (
          <ErrorState error={deliveries.error} onRetry={() => void deliveries.refetch()} />
        ) : deliveries.data.length === 0 ? (
          <p>{t('deliveries.none')}</p>
        ) : (
          <div className="table-wrap">
            <table className="rtable">
              <caption>{t('deliveries.heading')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('deliveries.type')}</th>
                  <th scope="col">{t('deliveries.status')}</th>
                  <th scope="col">{t('deliveries.attempts')}</th>
                  <th scope="col">{t('deliveries.code')}</th>
                  <th scope="col">{t('deliveries.error')}</th>
                  <th scope="col">
                    <span className="sr-only">{t('deliveries.retry')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {deliveries.data.map((d) => (
                  <tr key={d.id}>
                    <td>
                      <code>{d.type}</code>
                    </td>
                    <td>{d.status}</td>
                    <td>{d.attempts}</td>
                    <td>{d.last_status_code ?? '–'}</td>
                    <td>{d.last_error ?? ''}</td>
                    <td>
                      {d.status === 'running' ? null : (
                        <Button variant="secondary" className="btn-small" onClick={() => retry.mutate(d.id, { onSuccess: () => void deliveries.refetch() })}>
                          {t('deliveries.retry')}
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : null}
      <ConfirmDialog
        open={confirm}
        title={t('remove.title')}
        confirmLabel={t('remove.confirm')}
        variant="danger"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setConfirm(false)}
      >
        <p>{t('remove.body')}</p>
        <ProblemAlert error={remove.error} />
      </ConfirmDialog>
    </article>
  );
}
