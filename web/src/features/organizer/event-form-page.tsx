import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { get as getPath, useFieldArray, useForm, useWatch, type FieldPath, type UseFormReturn } from 'react-hook-form';
import { Link, useLocation } from 'wouter';
import { problemFieldText, useT } from '../../i18n';
import { ApiProblem, get, patch, post, type Body } from '../../lib/api';
import { browserTimeZone, useFormat } from '../../lib/format';
import { Button, ConfirmDialog, PageHeader, StatusBadge } from '../../ui/controls';
import { Checkbox, Field } from '../../ui/form';
import { ErrorState, Loading, NotFound, ProblemAlert } from '../../ui/states';
import { FIELD_TYPES, keyForLabel, MAX_FIELDS, newField } from './event-form-builder';
import {
  GALLERY_VISIBILITIES,
  NORMALIZATIONS,
  changedFields,
  deadlineInstant,
  emptyValues,
  eventZone,
  formPath,
  payloadFromValues,
  rezoneWall,
  valuesFromEvent,
  type EventDoc,
  type EventFormValues,
  type EventPayload,
} from './event-form-payload';
import { weightShares } from './event-form-shares';
import { formatDateTime, formatUtc, offsetLabel, timeZones, utcToWall, wallToUtc, type WallTime } from './event-form-time';
import { modelProvider, validateValues } from './event-form-validate';
import { formMessages } from './form-messages';
import { useSite } from '../../lib/site';
import { EventMediaSection } from './event-media-section';
import { deadlineChange, TellTheTeams, type DeadlineChange } from './deadline-announcement';
import './event-form.css';

const DESCRIPTION_MAX = 10_000;

export default function EventFormPage({ params }: { params?: { id?: string } }) {
  const id = params?.id;
  const event = useQuery({
    queryKey: ['events', id, 'owner'],
    queryFn: () => get('/events/{id}', { path: { id: id ?? '' } }),
    enabled: Boolean(id),
    // The editor holds its own copy while the organizer types; a refetch must not reset it.
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
  // Which AI providers this server has; an older server without /site simply shows no hint.
  const site = useSite();
  if (id && event.isPending) return <Loading />;
  if (id && event.isError) {
    if (event.error instanceof ApiProblem && event.error.status === 404) return <NotFound />;
    return <ErrorState error={event.error} onRetry={() => void event.refetch()} />;
  }
  return <EventEditor event={event.data ?? null} providers={site.data?.ai_providers ?? null} />;
}

type Action = 'save' | 'publish' | 'cancel';
type Notice = 'saved' | 'published' | 'cancelled' | 'noChanges' | null;

function EventEditor({ event: initial, providers }: { event: EventDoc | null; providers: string[] | null }) {
  const { t } = useT('organizer-form', formMessages);
  const common = useT().t;
  const fmt = useFormat();
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [event, setEvent] = useState(initial);
  const [notice, setNotice] = useState<Notice>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const [invalid, setInvalid] = useState(false);
  const [focusTick, setFocusTick] = useState(0);
  const [confirm, setConfirm] = useState<'publish' | 'cancel' | null>(null);
  // Deadlines moved by the last save: the page offers to tell the registered teams.
  const [moved, setMoved] = useState<DeadlineChange | null>(null);
  // An event without a stored zone (made by an agent, or before zones were kept) opens in the browser's.
  const zone = browserTimeZone();
  const form = useForm<EventFormValues>({ defaultValues: initial ? valuesFromEvent(initial, zone) : emptyValues(zone) });
  const { register, control, setError, clearErrors, reset, formState } = form;
  const values = useWatch({ control }) as EventFormValues;
  // The zone the deadline inputs are written in: a new pick converts them from it (same instants).
  const { onChange: setZone, ...zoneField } = register('timeZone');
  const pickZone = (e: React.ChangeEvent<HTMLSelectElement>) => {
    const from = form.getValues('timeZone');
    const to = e.target.value;
    if (from !== to) {
      for (const name of ['registration_deadline', 'submission_deadline', 'hacking_starts_at'] as const) {
        form.setValue(name, rezoneWall(form.getValues(name), from, to, event?.[name] ?? undefined));
      }
    }
    void setZone(e);
  };

  const status = event?.status ?? null;
  const finished = status === 'ended' || status === 'cancelled';
  const judging = status === 'judging';

  // After problems are drawn, the first invalid input (in page order) gets focus and comes into view.
  useEffect(() => {
    if (!focusTick) return;
    const first = document.querySelector<HTMLElement>('#event-form [aria-invalid="true"]');
    first?.scrollIntoView({ block: 'center' });
    first?.focus({ preventScroll: true });
  }, [focusTick]);

  const write = useMutation({
    mutationFn: async ({ body }: { action: Action; body: Partial<EventPayload> & { status?: 'draft' | 'open' | 'cancelled' } }) => {
      if (event) return patch('/events/{id}', { path: { id: event.id }, body });
      // Only an existing event is cancelled: a new one is saved as a draft or published.
      const { status, ...rest } = body;
      // The server requires the name and both deadlines; inputs left empty are sent without them on
      // purpose, so that its 422 names each missing one on the form.
      return post('/events', { body: { ...rest, status: status === 'open' ? 'open' : 'draft' } as Body<'/events', 'post'> });
    },
    onSuccess: (saved, { action }) => {
      void client.invalidateQueries({ queryKey: ['events'] });
      if (!event) {
        navigate(`/events/${saved.id}`);
        return;
      }
      client.setQueryData(['events', saved.id, 'owner'], saved);
      // A second move before the teams were told: old is the first save's, new the latest.
      const change = action === 'cancel' ? null : deadlineChange(event, saved);
      if (change)
        setMoved((prev) =>
          prev
            ? {
                registration: { ...change.registration, before: prev.registration.before },
                submission: { ...change.submission, before: prev.submission.before },
              }
            : change,
        );
      setEvent(saved);
      reset(valuesFromEvent(saved, form.getValues('timeZone')));
      setNotice(action === 'publish' ? 'published' : action === 'cancel' ? 'cancelled' : 'saved');
    },
    onError: (err) => {
      const leftovers = applyServerProblems(err, form);
      setInvalid(leftovers.length < (err instanceof ApiProblem ? err.errors.length : 0));
      // A problem that belongs to no input (or no field problems at all) is said above the actions.
      setProblem(err instanceof ApiProblem && err.errors.length > 0 && leftovers.length === 0 ? null : err);
      setFocusTick((n) => n + 1);
    },
  });

  function run(action: Action) {
    setNotice(null);
    setProblem(null);
    setInvalid(false);
    clearErrors();
    if (action === 'cancel') {
      write.mutate({ action, body: { status: 'cancelled' } });
      return;
    }
    const v = form.getValues();
    const problems = validateValues(v);
    if (problems.length) {
      for (const p of problems) setError(p.path as FieldPath<EventFormValues>, { type: 'client', message: t(p.message) });
      setInvalid(true);
      setFocusTick((n) => n + 1);
      return;
    }
    const payload = payloadFromValues(v, event);
    if (!event) {
      write.mutate({ action, body: { ...payload, status: action === 'publish' ? 'open' : 'draft' } });
      return;
    }
    const changes = changedFields(event, payload, zone);
    if (action === 'save' && Object.keys(changes).length === 0) {
      setNotice('noChanges');
      return;
    }
    write.mutate({ action, body: action === 'publish' ? { ...changes, status: 'open' } : changes });
  }

  const err = (path: string): string | undefined => getPath<typeof formState.errors, { message?: string } | undefined>(formState.errors, path)?.message;
  const title = event ? t('form.editTitle', { name: event.name }) : t('form.newTitle');
  const regIso = wallToUtc(values.registration_deadline, values.timeZone)?.iso;

  const sections: [string, string][] = [
    ['ev-basics', t('form.basics')],
    ...(event ? ([['ev-media', t('media.title')]] as [string, string][]) : []),
    ['ev-timeline', t('form.timeline')],
    ['ev-tracks', t('form.tracks')],
    ['ev-dimensions', t('form.dimensions')],
    ['ev-models', t('form.models')],
    ['ev-form', t('form.form')],
    ['ev-settings', t('form.settings')],
  ];

  return (
    <>
      <PageHeader
        title={title}
        subtitle={event ? t('form.editSubtitle') : t('form.newSubtitle')}
        actions={
          event ? (
            <Link href={`/events/${event.id}`} className="btn btn-secondary">
              {t('form.viewEvent')}
            </Link>
          ) : undefined
        }
      />
      {event && moved ? <TellTheTeams key={JSON.stringify(moved)} event={event} change={moved} onClose={() => setMoved(null)} /> : null}
      <div className="event-form-layout">
        <nav className="event-form-toc" aria-label={t('form.sections')}>
          <ol>
            {sections.map(([anchor, label]) => (
              <li key={anchor}>
                <a href={`#${anchor}`}>{label}</a>
              </li>
            ))}
          </ol>
        </nav>
        <form id="event-form" className="event-form" noValidate onSubmit={(e) => e.preventDefault()}>
          <fieldset className="event-form-all" disabled={finished}>
            <Section id="ev-basics" title={t('form.basics')}>
              <Field label={t('form.name')} error={err('name')}>
                <input type="text" maxLength={200} autoComplete="off" {...register('name')} />
              </Field>
              <Field
                label={t('form.description')}
                hint={
                  <>
                    {t('form.descriptionHint')}{' '}
                    <span className={values.description.length > DESCRIPTION_MAX ? 'event-form-over' : undefined}>
                      {t('form.characters', { count: values.description.length, max: fmt.number(DESCRIPTION_MAX, 0) })}
                    </span>
                  </>
                }
                error={err('description')}
              >
                <textarea rows={6} {...register('description')} />
              </Field>
            </Section>

            {event ? (
              <EventMediaSection
                event={event}
                disabled={finished}
                onChanged={() =>
                  void get('/events/{id}', { path: { id: event.id } }).then((fresh) => {
                    client.setQueryData(['events', fresh.id, 'owner'], fresh);
                    setEvent(fresh);
                  })
                }
              />
            ) : null}

            <Section id="ev-timeline" title={t('form.timeline')} locked={judging ? t('form.explainLockedJudging') : undefined}>
              <Field label={t('form.timeZone')} hint={`${t('form.timeZoneHint')} ${offsetLabel(values.timeZone, regIso)}`}>
                <TimeZoneSelect {...zoneField} onChange={pickZone} also={initial ? eventZone(initial, zone) : zone} />
              </Field>
              <Deadline
                form={form}
                name="registration_deadline"
                label={t('form.registrationDeadline')}
                values={values}
                stored={event?.registration_deadline}
                error={err('registration_deadline.date')}
              />
              <Deadline
                form={form}
                name="hacking_starts_at"
                label={t('form.hackingStart')}
                hint={t('form.hackingStartHint')}
                values={values}
                stored={event?.hacking_starts_at ?? undefined}
                error={err('hacking_starts_at.date')}
              />
              <Deadline
                form={form}
                name="submission_deadline"
                label={t('form.submissionDeadline')}
                values={values}
                stored={event?.submission_deadline}
                error={err('submission_deadline.date')}
              />
            </Section>

            <TracksSection form={form} err={err} locked={judging} />
            <DimensionsSection form={form} err={err} values={values} locked={judging} />
            <ModelsSection form={form} err={err} values={values} providers={providers} locked={judging} />
            <FieldsSection form={form} err={err} values={values} />

            <Section id="ev-settings" title={t('form.settings')}>
              <Checkbox label={t('form.open')} hint={t('form.openHint')} {...register('open')} />
              <Checkbox label={t('form.autoApprove')} hint={t('form.autoApproveHint')} {...register('auto_approve')} />
              <fieldset className="team-size">
                <legend>{t('form.teamSize')}</legend>
                <p className="muted small">{t('form.teamSizeHint')}</p>
                <div className="row">
                  <Field label={t('form.minTeamSize')} error={err('min_team_size')}>
                    <input type="number" inputMode="numeric" min={1} max={100} step={1} {...register('min_team_size')} />
                  </Field>
                  <Field label={t('form.maxTeamSize')} error={err('max_team_size')}>
                    <input type="number" inputMode="numeric" min={1} max={100} step={1} {...register('max_team_size')} />
                  </Field>
                </div>
              </fieldset>
              <Field label={t('form.gallery')} hint={t('form.galleryHint')} error={err('gallery_visibility')}>
                <select {...register('gallery_visibility')}>
                  {GALLERY_VISIBILITIES.map((v) => (
                    <option key={v} value={v}>
                      {t(`form.galleryOption.${v}`)}
                    </option>
                  ))}
                </select>
              </Field>
              <Field label={t('form.normalization')} hint={t('form.normalizationHint')} error={err('normalization')}>
                <select {...register('normalization')}>
                  {NORMALIZATIONS.map((v) => (
                    <option key={v} value={v}>
                      {t(`form.normalizationOption.${v}`)}
                    </option>
                  ))}
                </select>
              </Field>
              <CoOrganizers form={form} err={err} />
            </Section>
          </fieldset>
        </form>

        <aside className="event-form-aside" aria-labelledby="ev-status-title">
          <div className="card event-form-status">
            <h2 id="ev-status-title">{t('form.status')}</h2>
            <p className="row">
              <span>{t('form.statusNow')}</span> {status ? <StatusBadge status={status} /> : <span className="badge">{t('form.newStatus')}</span>}
            </p>
            {finished ? (
              <p className="alert alert-info">{t('form.explainLocked', { status: common(`eventStatus.${status}`) })}</p>
            ) : (
              <>
                <h3>{t('form.whatHappens')}</h3>
                <ul className="event-form-explain">
                  <li>{event ? t('form.explainSave') : t('form.explainSaveDraft')}</li>
                  {!event || status === 'draft' ? <li>{t('form.explainPublish')}</li> : null}
                  {event ? <li>{t('form.explainCancel')}</li> : null}
                  {judging ? <li>{t('form.explainLockedJudging')}</li> : null}
                </ul>
              </>
            )}
            <div role="status" aria-live="polite">
              {notice ? <p className={notice === 'noChanges' ? 'alert alert-info' : 'alert alert-ok'}>{t(`form.${notice}`)}</p> : null}
            </div>
            {invalid ? (
              <p className="alert alert-error" role="alert">
                {t('form.fixFields')}
              </p>
            ) : null}
            <ProblemAlert error={problem} />
            {finished ? null : (
              <div className="event-form-actions">
                <Button busy={write.isPending && write.variables?.action === 'save'} disabled={write.isPending} onClick={() => run('save')}>
                  {event ? t('form.saveChanges') : t('form.saveDraft')}
                </Button>
                {!event || status === 'draft' ? (
                  <Button variant="secondary" disabled={write.isPending} onClick={() => setConfirm('publish')}>
                    {t('form.publish')}
                  </Button>
                ) : null}
                {event ? (
                  <Button variant="danger" disabled={write.isPending} onClick={() => setConfirm('cancel')}>
                    {t('form.cancelEvent')}
                  </Button>
                ) : null}
              </div>
            )}
          </div>
        </aside>
      </div>

      {/* One dialog at a time: ConfirmDialog names itself by a fixed element id. */}
      <ConfirmDialog
        open={confirm !== null}
        title={confirm === 'cancel' ? t('form.cancelTitle') : t('form.publishTitle')}
        confirmLabel={confirm === 'cancel' ? t('form.cancelConfirm') : t('form.publishConfirm')}
        variant={confirm === 'cancel' ? 'danger' : 'primary'}
        busy={write.isPending}
        onClose={() => setConfirm(null)}
        onConfirm={() => {
          const action = confirm;
          setConfirm(null);
          if (action) run(action);
        }}
      >
        <p>
          {confirm === 'cancel'
            ? t('form.cancelBody')
            : t('form.publishBody', { deadline: regIso ? formatDateTime(fmt.locale, regIso, values.timeZone) : '–' })}
        </p>
      </ConfirmDialog>
    </>
  );
}

/** Puts each of the server's field problems next to its input; returns those that belong to none. */
function applyServerProblems(err: unknown, form: UseFormReturn<EventFormValues>): string[] {
  if (!(err instanceof ApiProblem)) return [];
  const leftovers: string[] = [];
  for (const e of err.errors) {
    const path = formPath(e.field);
    if (path) form.setError(path as FieldPath<EventFormValues>, { type: 'server', message: problemFieldText(e) });
    else leftovers.push(e.field);
  }
  return leftovers;
}

function Section({ id, title, hint, locked, children }: { id: string; title: string; hint?: string; locked?: string | undefined; children: ReactNode }) {
  return (
    <section className="card event-form-section" id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {hint ? <p className="muted">{hint}</p> : null}
      {locked ? <p className="alert alert-info">{locked}</p> : null}
      <fieldset className="event-form-plain" disabled={Boolean(locked)}>
        {children}
      </fieldset>
    </section>
  );
}

/** Every zone, with `also` (the event's own, which the browser's list may spell otherwise) among them. */
function TimeZoneSelect({ also, ...props }: React.SelectHTMLAttributes<HTMLSelectElement> & { ref?: React.Ref<HTMLSelectElement>; also: string }) {
  const zones = useMemo(() => timeZones([browserTimeZone(), also]), [also]);
  return (
    <select {...props}>
      {zones.map((z) => (
        <option key={z} value={z}>
          {z.replace(/_/g, ' ')}
        </option>
      ))}
    </select>
  );
}

function Deadline({
  form,
  name,
  label,
  hint,
  values,
  stored,
  error,
}: {
  form: UseFormReturn<EventFormValues>;
  name: 'registration_deadline' | 'submission_deadline' | 'hacking_starts_at';
  label: string;
  hint?: string;
  values: EventFormValues;
  /** The saved event's instant: while the inputs show it, it is what they mean. */
  stored: string | undefined;
  error: string | undefined;
}) {
  const { t } = useT('organizer-form', formMessages);
  const wall: WallTime = values[name];
  const at = deadlineInstant(wall, values.timeZone, stored);
  // The DST notes are about digits being read: not shown while the inputs still mean the stored instant.
  const resolved = at !== null && at === stored ? { iso: at, kind: 'exact' as const } : wallToUtc(wall, values.timeZone);
  const shown = resolved ? utcToWall(resolved.iso, values.timeZone) : null;
  return (
    <fieldset className="event-form-deadline">
      <legend>{label}</legend>
      {hint ? <p className="small muted">{hint}</p> : null}
      <div className="event-form-pair">
        <Field label={t('form.date')} error={error}>
          <input type="date" {...form.register(`${name}.date`)} />
        </Field>
        <Field label={t('form.time')}>
          <input type="time" step={60} {...form.register(`${name}.time`)} />
        </Field>
      </div>
      {resolved ? (
        <p className="event-form-utc" aria-live="polite">
          {t('form.stored', { utc: formatUtc(resolved.iso) })}
        </p>
      ) : null}
      {resolved?.kind === 'gap' && shown ? (
        <p className="alert alert-warn">{t('form.gap', { zone: values.timeZone, wall: `${shown.date} ${shown.time}` })}</p>
      ) : null}
      {resolved?.kind === 'ambiguous' ? <p className="alert alert-warn">{t('form.ambiguous', { zone: values.timeZone })}</p> : null}
    </fieldset>
  );
}

type Err = (path: string) => string | undefined;

/** ↑ ↓ × buttons of a row; their names say which row they act on. */
function RowActions({
  row,
  index,
  count,
  onMove,
  onRemove,
  minRows = 0,
}: {
  row: string;
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
  onRemove: (i: number) => void;
  minRows?: number;
}) {
  const { t } = useT('organizer-form', formMessages);
  return (
    <div className="event-form-row-actions" role="group" aria-label={t('form.rowActions', { row })}>
      <button
        type="button"
        className="btn btn-ghost btn-small"
        aria-label={`${t('form.moveUp')}: ${row}`}
        disabled={index === 0}
        onClick={() => onMove(index, index - 1)}
      >
        <span aria-hidden="true">↑</span>
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-small"
        aria-label={`${t('form.moveDown')}: ${row}`}
        disabled={index === count - 1}
        onClick={() => onMove(index, index + 1)}
      >
        <span aria-hidden="true">↓</span>
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-small event-form-remove"
        aria-label={`${t('form.remove')}: ${row}`}
        disabled={count <= minRows}
        onClick={() => onRemove(index)}
      >
        {t('form.remove')}
      </button>
    </div>
  );
}

function TracksSection({ form, err, locked }: { form: UseFormReturn<EventFormValues>; err: Err; locked: boolean }) {
  const { t } = useT('organizer-form', formMessages);
  const { fields, append, remove, move } = useFieldArray({ control: form.control, name: 'tracks' });
  return (
    <Section id="ev-tracks" title={t('form.tracks')} hint={t('form.tracksHint')} locked={locked ? t('form.explainLockedJudging') : undefined}>
      {fields.map((row, i) => {
        const label = t('form.track', { n: i + 1 });
        return (
          <fieldset key={row.id} className="event-form-row">
            <legend>{label}</legend>
            <div className="event-form-row-grid event-form-track">
              <Field label={t('form.trackName')} error={err(`tracks.${i}.name`)}>
                <input
                  type="text"
                  maxLength={120}
                  {...form.register(`tracks.${i}.name`, {
                    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
                      if (form.getValues(`tracks.${i}.idEdited`)) return;
                      const others = form
                        .getValues('tracks')
                        .filter((_, j) => j !== i)
                        .map((o) => o.id);
                      form.setValue(`tracks.${i}.id`, keyForLabel(e.target.value, others, `track-${i + 1}`, '-'));
                    },
                  })}
                />
              </Field>
              <Field label={t('form.trackId')} hint={t('form.trackIdHint')} error={err(`tracks.${i}.id`)}>
                <input
                  type="text"
                  maxLength={64}
                  className="mono"
                  spellCheck={false}
                  {...form.register(`tracks.${i}.id`, { onChange: () => form.setValue(`tracks.${i}.idEdited`, true) })}
                />
              </Field>
              <Field label={t('form.prize')} error={err(`tracks.${i}.prize`)}>
                <input type="text" maxLength={500} {...form.register(`tracks.${i}.prize`)} />
              </Field>
            </div>
            <RowActions row={label} index={i} count={fields.length} onMove={move} onRemove={remove} />
          </fieldset>
        );
      })}
      {err('tracks') ? <p className="field-error">{err('tracks')}</p> : null}
      <Button
        variant="secondary"
        disabled={fields.length >= 50}
        onClick={() => append({ id: `track-${fields.length + 1}`, name: '', prize: '', idEdited: false })}
      >
        {t('form.addTrack')}
      </Button>
    </Section>
  );
}

function DimensionsSection({ form, err, values, locked }: { form: UseFormReturn<EventFormValues>; err: Err; values: EventFormValues; locked: boolean }) {
  const { t } = useT('organizer-form', formMessages);
  const fmt = useFormat();
  const { fields, append, remove, move } = useFieldArray({ control: form.control, name: 'dimensions' });
  const shares = weightShares(values.dimensions.map((d) => d.weight.replace(',', '.')));
  return (
    <Section id="ev-dimensions" title={t('form.dimensions')} hint={t('form.dimensionsHint')} locked={locked ? t('form.explainLockedJudging') : undefined}>
      {fields.map((row, i) => {
        const label = t('form.dimension', { n: i + 1 });
        const share = shares[i] ?? 0;
        return (
          <fieldset key={row.id} className="event-form-row">
            <legend>{label}</legend>
            <div className="event-form-row-grid event-form-dimension">
              <Field label={t('form.dimensionName')} error={err(`dimensions.${i}.name`)}>
                <input type="text" maxLength={80} {...form.register(`dimensions.${i}.name`)} />
              </Field>
              <Field label={t('form.weight')} error={err(`dimensions.${i}.weight`)}>
                <input type="text" inputMode="decimal" {...form.register(`dimensions.${i}.weight`)} />
              </Field>
              <div className="event-form-share">
                <span className="event-form-share-bar" aria-hidden="true">
                  <span style={{ width: `${share}%` }} />
                </span>
                <output>{t('form.share', { share: fmt.percent(share / 100) })}</output>
              </div>
            </div>
            <RowActions row={label} index={i} count={fields.length} onMove={move} onRemove={remove} minRows={1} />
          </fieldset>
        );
      })}
      {err('dimensions') ? <p className="field-error">{err('dimensions')}</p> : null}
      <Button variant="secondary" disabled={fields.length >= 20} onClick={() => append({ name: '', weight: '1' })}>
        {t('form.addDimension')}
      </Button>
    </Section>
  );
}

function ModelsSection({
  form,
  err,
  values,
  providers,
  locked,
}: {
  form: UseFormReturn<EventFormValues>;
  err: Err;
  values: EventFormValues;
  providers: string[] | null;
  locked: boolean;
}) {
  const { t } = useT('organizer-form', formMessages);
  const { fields, append, remove, move } = useFieldArray({ control: form.control, name: 'models' });
  const known = providers?.map((p) => p.toLowerCase()) ?? null;
  return (
    <Section id="ev-models" title={t('form.models')} hint={t('form.modelsHint')} locked={locked ? t('form.explainLockedJudging') : undefined}>
      {known ? (
        <p className={known.length ? 'event-form-providers' : 'alert alert-warn'}>
          {known.length ? t('form.configured', { list: known.join(', ') }) : t('form.noneConfigured')}
        </p>
      ) : null}
      {fields.map((row, i) => {
        const label = t('form.model', { n: i + 1 });
        const provider = modelProvider(values.models[i]?.value ?? '');
        const missing = known && known.length > 0 && provider && !known.includes(provider);
        return (
          <div key={row.id} className="event-form-inline-row">
            <Field
              label={label}
              error={err(`models.${i}.value`)}
              hint={missing ? <span className="event-form-warn">{t('form.providerMissing', { provider })}</span> : undefined}
            >
              <input
                type="text"
                className="mono"
                spellCheck={false}
                autoComplete="off"
                placeholder="openai/gpt-4o-mini"
                {...form.register(`models.${i}.value`)}
              />
            </Field>
            <RowActions row={label} index={i} count={fields.length} onMove={move} onRemove={remove} />
          </div>
        );
      })}
      <Button variant="secondary" disabled={fields.length >= 10} onClick={() => append({ value: '' })}>
        {t('form.addModel')}
      </Button>
    </Section>
  );
}

function FieldsSection({ form, err, values }: { form: UseFormReturn<EventFormValues>; err: Err; values: EventFormValues }) {
  const { t } = useT('organizer-form', formMessages);
  const { fields, append, remove, move } = useFieldArray({ control: form.control, name: 'fields' });
  return (
    <Section id="ev-form" title={t('form.form')} hint={t('form.formHint')}>
      <div className="event-form-builder">
        <div>
          {fields.map((row, i) => {
            const label = t('form.field', { n: i + 1 });
            return (
              <fieldset key={row.id} className="event-form-row">
                <legend>{label}</legend>
                <div className="event-form-row-grid event-form-question">
                  <Field label={t('form.label')} error={err(`fields.${i}.label`)}>
                    <input
                      type="text"
                      maxLength={200}
                      {...form.register(`fields.${i}.label`, {
                        onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
                          if (form.getValues(`fields.${i}.keyEdited`)) return;
                          const others = form
                            .getValues('fields')
                            .filter((_, j) => j !== i)
                            .map((o) => o.key);
                          form.setValue(`fields.${i}.key`, keyForLabel(e.target.value, others, `field_${i + 1}`));
                        },
                      })}
                    />
                  </Field>
                  <Field label={t('form.key')} hint={t('form.keyHint')} error={err(`fields.${i}.key`)}>
                    <input
                      type="text"
                      maxLength={64}
                      className="mono"
                      spellCheck={false}
                      {...form.register(`fields.${i}.key`, { onChange: () => form.setValue(`fields.${i}.keyEdited`, true) })}
                    />
                  </Field>
                  <Field label={t('form.type')} error={err(`fields.${i}.type`)}>
                    <select {...form.register(`fields.${i}.type`)}>
                      {FIELD_TYPES.map((type) => (
                        <option key={type} value={type}>
                          {t(`form.types.${type}`)}
                        </option>
                      ))}
                    </select>
                  </Field>
                </div>
                <div className="spread">
                  <Checkbox label={t('form.required')} {...form.register(`fields.${i}.required`)} />
                  <RowActions row={label} index={i} count={fields.length} onMove={move} onRemove={remove} />
                </div>
              </fieldset>
            );
          })}
          <Button variant="secondary" disabled={fields.length >= MAX_FIELDS} onClick={() => append(newField(form.getValues('fields')))}>
            {t('form.addField')}
          </Button>
        </div>
        <FormPreview values={values} />
      </div>
    </Section>
  );
}

/** The registration form as a team will see it: the fixed questions, the track, then the organizer's. */
function FormPreview({ values }: { values: EventFormValues }) {
  const { t } = useT('organizer-form', formMessages);
  const inputType = (type: string) => (type === 'number' ? 'number' : type === 'email' ? 'email' : type === 'url' ? 'url' : 'text');
  const req = (required: boolean) => (required ? <span className="event-form-req"> ({t('form.previewRequired')})</span> : null);
  return (
    <section className="event-form-preview" aria-labelledby="ev-preview-title">
      <h3 id="ev-preview-title">{t('form.preview')}</h3>
      <fieldset disabled className="event-form-plain">
        <Field
          label={
            <>
              {t('form.previewTeamName')}
              {req(true)}
            </>
          }
        >
          <input type="text" />
        </Field>
        <Field label={t('form.previewContact')}>
          <input type="email" />
        </Field>
        <Field label={t('form.previewGithub')}>
          <input type="url" />
        </Field>
        {values.tracks.length ? (
          <Field
            label={
              <>
                {t('form.previewTrack')}
                {req(true)}
              </>
            }
          >
            <select>
              {values.tracks.map((track, i) => (
                <option key={i}>{track.prize ? `${track.name} · ${track.prize}` : track.name}</option>
              ))}
            </select>
          </Field>
        ) : null}
        {values.fields.map((f, i) => (
          <Field
            key={i}
            label={
              <>
                {f.label.trim() || t('form.previewUntitled')}
                {req(f.required)}
              </>
            }
          >
            {f.type === 'textarea' ? <textarea rows={3} /> : <input type={inputType(f.type)} />}
          </Field>
        ))}
      </fieldset>
    </section>
  );
}

function CoOrganizers({ form, err }: { form: UseFormReturn<EventFormValues>; err: Err }) {
  const { t } = useT('organizer-form', formMessages);
  const { fields, append, remove, move } = useFieldArray({ control: form.control, name: 'co_organizers' });
  return (
    <fieldset className="event-form-row event-form-co">
      <legend>{t('form.coOrganizers')}</legend>
      <p className="field-hint">{t('form.coOrganizersHint')}</p>
      {fields.map((row, i) => {
        const label = t('form.coOrganizer', { n: i + 1 });
        return (
          <div key={row.id} className="event-form-inline-row">
            <Field label={label} error={err(`co_organizers.${i}.value`)}>
              <input type="email" autoComplete="off" maxLength={254} {...form.register(`co_organizers.${i}.value`)} />
            </Field>
            <RowActions row={label} index={i} count={fields.length} onMove={move} onRemove={remove} />
          </div>
        );
      })}
      <Button variant="secondary" disabled={fields.length >= 20} onClick={() => append({ value: '' })}>
        {t('form.addCoOrganizer')}
      </Button>
    </fieldset>
  );
}
