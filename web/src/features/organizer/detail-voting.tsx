import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useT } from '../../i18n';
import { ApiProblem, del, get, patch, put, type Answer, type Body } from '../../lib/api';
import { browserTimeZone } from '../../lib/format';
import { Button } from '../../ui/controls';
import { Checkbox, Field } from '../../ui/form';
import { ErrorState, Loading, ProblemAlert } from '../../ui/states';
import { useDetailFormat as useFormat } from './detail-format';
import { isFinal, keys, trackName, TableWrap, useLiveInterval } from './detail-shared';
import type { EventDetail, TabProps } from './detail-types';
import './detail-voting.css';
import { offsetLabel, utcToWall, wallToUtc, type WallTime } from './event-form-time';
import { messages } from './detail-voting-messages';

type Tally = Answer<'/events/{id}/votes'>;
type ExcludedVotes = Partial<Tally['excluded_votes']>;

/** The reasons a vote does not count, in the order the server tries them. */
const REASONS = ['team_not_approved', 'project_excluded', 'disabled_account', 'own_or_former_team', 'new_account'] as const;
type VotingPatch = NonNullable<Body<'/events/{id}', 'patch'>['voting']>;

const tallyKey = (id: string) => ['organizer-event', id, 'votes'] as const;

/**
 * The people's choice tab: the vote's settings (the event's `voting` object, saved with PATCH
 * /events/:id; times typed in the event's zone), the live tally only organizers see before
 * publication (votes per project, per hour), and taking a project out of the vote.
 */
export default function VotingTab({ event }: TabProps) {
  const { t } = useT('organizer-voting', messages);
  const interval = useLiveInterval(event.id);
  const tally = useQuery({
    queryKey: tallyKey(event.id),
    queryFn: ({ signal }) => get('/events/{id}/votes', { path: { id: event.id }, signal }),
    refetchInterval: event.voting.enabled ? interval : false,
  });
  return (
    <div className="stack voting-tab">
      <Settings event={event} />
      <section className="card stack" aria-labelledby="tally-title">
        <h2 id="tally-title">{t('tally')}</h2>
        {!event.voting.enabled ? (
          <p className="muted">{t('off')}</p>
        ) : tally.isPending ? (
          <Loading />
        ) : tally.isError ? (
          <ErrorState error={tally.error} onRetry={() => void tally.refetch()} />
        ) : (
          <TallyView event={event} tally={tally.data} />
        )}
      </section>
    </div>
  );
}

function Settings({ event }: { event: EventDetail }) {
  const { t } = useT('organizer-voting', messages);
  const fmt = useFormat();
  const client = useQueryClient();
  const zone = event.time_zone ?? browserTimeZone();
  const v = event.voting;
  const wall = (iso: string | null | undefined): WallTime => (iso ? (utcToWall(iso, zone) ?? { date: '', time: '' }) : { date: '', time: '' });
  // opens_at as the event answers it is filled in with the deadline when unset: show it empty then.
  const [form, setForm] = useState(() => ({
    enabled: v.enabled,
    opens: v.opens_at && v.opens_at !== event.submission_deadline ? wall(v.opens_at) : { date: '', time: '' },
    closes: wall(v.closes_at),
    votes_per_person: String(v.votes_per_person),
    per_track: v.per_track,
    exclude_new_accounts: v.exclude_new_accounts,
  }));
  const [saved, setSaved] = useState(false);
  const [local, setLocal] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (voting: VotingPatch) => patch('/events/{id}', { path: { id: event.id }, body: { voting } }),
    onSuccess: async () => {
      setSaved(true);
      await client.invalidateQueries({ queryKey: keys.all(event.id) });
    },
  });
  const final = isFinal(event.status);
  const problem = save.error instanceof ApiProblem ? save.error : null;
  const fieldError = (field: string) => local[field] ?? problem?.fieldError(`voting.${field}`);
  const shownProblem = problem && !['opens_at', 'closes_at', 'votes_per_person'].some((f) => problem.fieldError(`voting.${f}`));
  const set = (patch: Partial<typeof form>) => {
    setForm((f) => ({ ...f, ...patch }));
    setSaved(false);
  };

  function submit() {
    const errors: Record<string, string> = {};
    const instant = (w: WallTime, field: string): string | null | undefined => {
      if (!w.date && !w.time) return null;
      const r = wallToUtc(w, zone);
      if (!r) errors[field] = t('badTime');
      return r?.iso;
    };
    const opens_at = instant(form.opens, 'opens_at');
    const closes_at = instant(form.closes, 'closes_at');
    const votes = Number(form.votes_per_person);
    if (!Number.isInteger(votes) || votes < 1 || votes > 20) errors.votes_per_person = t('badVotes');
    setLocal(errors);
    if (Object.keys(errors).length > 0) return;
    save.mutate({
      enabled: form.enabled,
      opens_at: opens_at ?? null,
      closes_at: closes_at ?? null,
      votes_per_person: votes,
      per_track: form.per_track,
      exclude_new_accounts: form.exclude_new_accounts,
    });
  }

  const when = (label: string, hint: string, field: 'opens' | 'closes', api: string) => (
    <fieldset className="voting-when">
      <legend>{label}</legend>
      <div className="voting-when-inputs">
        <Field label={t('date')} error={fieldError(api)}>
          <input type="date" value={form[field].date} disabled={final} onChange={(e) => set({ [field]: { ...form[field], date: e.target.value } })} />
        </Field>
        <Field label={t('time')}>
          <input type="time" value={form[field].time} disabled={final} onChange={(e) => set({ [field]: { ...form[field], time: e.target.value } })} />
        </Field>
      </div>
      <p className="field-hint">{hint}</p>
    </fieldset>
  );

  return (
    <section className="card" aria-labelledby="voting-settings-title">
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <h2 id="voting-settings-title">{t('settings')}</h2>
        {final ? <p className="alert alert-info">{t('locked')}</p> : null}
        {shownProblem ? <ProblemAlert error={save.error} /> : null}
        <Checkbox label={t('enabled')} hint={t('enabledHint')} checked={form.enabled} disabled={final} onChange={(e) => set({ enabled: e.target.checked })} />
        <p className="small muted">{t('zone', { zone, offset: offsetLabel(zone) })}</p>
        {when(t('opensAt'), t('opensAtHint', { deadline: fmt.dateTime(event.submission_deadline) }), 'opens', 'opens_at')}
        {when(t('closesAt'), t('closesAtHint'), 'closes', 'closes_at')}
        <Field label={t('votesPerPerson')} error={fieldError('votes_per_person')} className="voting-number">
          <input
            type="number"
            min={1}
            max={20}
            step={1}
            inputMode="numeric"
            value={form.votes_per_person}
            disabled={final}
            onChange={(e) => set({ votes_per_person: e.target.value })}
          />
        </Field>
        <Checkbox
          label={t('perTrack')}
          hint={t('perTrackHint')}
          checked={form.per_track}
          disabled={final}
          onChange={(e) => set({ per_track: e.target.checked })}
        />
        <Checkbox
          label={t('excludeNew')}
          hint={t('excludeNewHint')}
          checked={form.exclude_new_accounts}
          disabled={final}
          onChange={(e) => set({ exclude_new_accounts: e.target.checked })}
        />
        {final ? null : (
          <div className="form-actions row">
            <Button type="submit" busy={save.isPending}>
              {t('save')}
            </Button>
            {saved ? (
              <span role="status" className="muted small">
                {t('saved')}
              </span>
            ) : null}
          </div>
        )}
      </form>
    </section>
  );
}

function TallyView({ event, tally }: { event: EventDetail; tally: Tally }) {
  const { t } = useT('organizer-voting', messages);
  const fmt = useFormat();
  const client = useQueryClient();
  const toggle = useMutation({
    mutationFn: ({ projectId, excluded }: { projectId: string; excluded: boolean }) => {
      const path = { id: event.id, project_id: projectId };
      return excluded ? put('/events/{id}/votes/exclusions/{project_id}', { path }) : del('/events/{id}/votes/exclusions/{project_id}', { path });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: tallyKey(event.id) }),
  });
  const final = isFinal(event.status);
  const maxHour = Math.max(1, ...tally.per_hour.map((h) => h.votes));
  return (
    <div className="stack">
      <p className="small muted">{t('tallyHidden')}</p>
      <dl className="voting-figures">
        <div>
          <dt>{tally.open ? t('open') : t('closed')}</dt>
          <dd>
            {tally.closes_at
              ? t('window', { opens: fmt.dateTime(tally.opens_at), closes: fmt.dateTime(tally.closes_at) })
              : t('windowOpenEnded', { opens: fmt.dateTime(tally.opens_at) })}
          </dd>
        </div>
        <div>
          <dt>{t('votesCast')}</dt>
          <dd className="voting-figure">{fmt.number(tally.votes, 0)}</dd>
        </div>
        <div>
          <dt>{t('countedTotal')}</dt>
          <dd className="voting-figure">{fmt.number(tally.counted, 0)}</dd>
        </div>
        <div>
          <dt>{t('notCounted')}</dt>
          <dd className="voting-figure">{fmt.number(tally.votes - tally.counted, 0)}</dd>
        </div>
        <div>
          <dt>{t('voters')}</dt>
          <dd className="voting-figure">{fmt.number(tally.voters, 0)}</dd>
        </div>
      </dl>
      <section className="voting-not-counted" aria-labelledby="not-counted-title">
        <h3 id="not-counted-title">{t('notCountedBy')}</h3>
        <p className="small muted">{t('notCountedHint')}</p>
        {tally.votes === tally.counted ? <p className="muted">{t('noneExcluded')}</p> : <Reasons counts={tally.excluded_votes} />}
      </section>
      {toggle.error ? <ProblemAlert error={toggle.error} /> : null}
      {tally.projects.length === 0 ? (
        <p className="muted">{t('noProjects')}</p>
      ) : (
        <TableWrap label={t('tally')}>
          <table className="voting-table">
            <thead>
              <tr>
                <th scope="col">{t('rank')}</th>
                <th scope="col">{t('project')}</th>
                <th scope="col">{t('team')}</th>
                {event.tracks.length > 0 ? <th scope="col">{t('track')}</th> : null}
                <th scope="col" className="num">
                  {t('counted')}
                </th>
                <th scope="col">{t('notCounted')}</th>
                {final ? null : (
                  <th scope="col">
                    <span className="sr-only">{t('excluded')}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {tally.projects.map((p) => (
                <tr key={p.project_id} className={p.excluded ? 'voting-excluded' : undefined}>
                  <td>{p.rank ?? '–'}</td>
                  <th scope="row">{p.project_name}</th>
                  <td>{p.team_name}</td>
                  {event.tracks.length > 0 ? <td>{trackName(event, p.track_id, t('noTrack'))}</td> : null}
                  <td className="num">{p.excluded ? t('excluded') : fmt.number(p.votes ?? 0, 0)}</td>
                  <td>
                    <span className="voting-not-counted-n">{fmt.number(p.cast - (p.votes ?? 0), 0)}</span>
                    <Reasons counts={p.excluded_votes} small />
                  </td>
                  {final ? null : (
                    <td>
                      <Button
                        variant="ghost"
                        className="btn-small"
                        busy={toggle.isPending && toggle.variables?.projectId === p.project_id}
                        aria-label={p.excluded ? t('includeLabel', { name: p.project_name }) : t('excludeLabel', { name: p.project_name })}
                        onClick={() => toggle.mutate({ projectId: p.project_id, excluded: !p.excluded })}
                      >
                        {p.excluded ? t('include') : t('exclude')}
                      </Button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      <h3>{t('perHour')}</h3>
      <p className="small muted">{t('perHourHint')}</p>
      {tally.per_hour.length === 0 ? (
        <p className="muted">{t('noVotes')}</p>
      ) : (
        <ul className="voting-hours" aria-label={t('perHour')}>
          {tally.per_hour.map((h) => (
            <li key={h.hour}>
              <span className="voting-hour">{h.hour.slice(0, 13).replace('T', ' ')}:00</span>
              <span className="voting-bar" style={{ inlineSize: `${Math.max(2, (h.votes / maxHour) * 100)}%` }} aria-hidden="true" />
              <span className="voting-count">{fmt.number(h.votes, 0)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The reasons that left votes out, with how many each (only those that did). */
function Reasons({ counts, small }: { counts: ExcludedVotes; small?: boolean }) {
  const { t } = useT('organizer-voting', messages);
  const fmt = useFormat();
  const shown = REASONS.filter((r) => (counts[r] ?? 0) > 0);
  if (shown.length === 0) return null;
  return (
    <ul className={small ? 'voting-reasons small muted' : 'voting-reasons'}>
      {shown.map((r) => (
        <li key={r}>{t('reasonCount', { reason: t(`reason_${r}`), count: fmt.number(counts[r] ?? 0, 0) })}</li>
      ))}
    </ul>
  );
}
