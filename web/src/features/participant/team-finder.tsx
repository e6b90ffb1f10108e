import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem, del, get, patch, post, put, type Answer } from '../../lib/api';
import { useNow } from '../../lib/now';
import { Button } from '../../ui/controls';
import { Field } from '../../ui/form';
import { ErrorState, Loading, ProblemAlert } from '../../ui/states';
import type { PublicEvent } from '../shared/event-data';
import { myRegistrationKey, submissionsClosed, useMyRegistration } from './data';
import { messages } from './team-finder-messages';
import { teamKey, type Team } from './team-api';

/*
 * The team finder on the participant's pages: on the team page, a person in no team lists themself
 * and asks teams to take them; a leader says what the team needs and answers requests. The event
 * page's own-team slot points people in no team here.
 */

type Finder = Answer<'/events/{id}/team-finder'>;
type FinderTeam = Finder['teams'][number];
type JoinRequest = Finder['my_requests'][number];

const finderKey = (eventId: string) => ['team-finder', eventId] as const;

/** The finder's lists, or null when the caller may not see them yet (403 forbidden: not looking, in no team). */
function useFinder(eventId: string, skill: string) {
  return useQuery({
    queryKey: [...finderKey(eventId), skill],
    queryFn: async ({ signal }): Promise<Finder | null> => {
      try {
        return await get('/events/{id}/team-finder', { path: { id: eventId }, query: skill ? { skill } : {}, signal });
      } catch (err) {
        if (err instanceof ApiProblem && err.status === 403) return null;
        throw err;
      }
    },
  });
}

function useFinderAction<A>(eventId: string, fn: (arg: A) => Promise<unknown>, after?: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: finderKey(eventId) }),
        client.invalidateQueries({ queryKey: teamKey(eventId) }),
        client.invalidateQueries({ queryKey: myRegistrationKey(eventId) }),
      ]);
      after?.();
    },
  });
}

const splitSkills = (text: string) =>
  text
    .split(/[,，、]/)
    .map((s) => s.trim())
    .filter(Boolean)
    .slice(0, 10);

function Skills({ skills }: { skills: string[] }) {
  const { t } = useT('team-finder', messages);
  if (skills.length === 0) return null;
  return (
    <ul className="finder-skills" aria-label={t('skills')}>
      {skills.map((s) => (
        <li key={s} className="badge badge-draft">
          {s}
        </li>
      ))}
    </ul>
  );
}

/** The line-and-skills form: a person's entry, or a leader's "what we need". */
function EntryForm({
  eventId,
  initial,
  labels,
}: {
  eventId: string;
  initial: { line: string; skills: string[] } | null;
  labels: { line: string; lineHint: string; skills: string; submit: string; title: string };
}) {
  const { t } = useT('team-finder', messages);
  const [line, setLine] = useState(initial?.line ?? '');
  const [skills, setSkills] = useState((initial?.skills ?? []).join(', '));
  const [saved, setSaved] = useState(false);
  const save = useFinderAction(
    eventId,
    () => put('/events/{id}/team-finder/me', { path: { id: eventId }, body: { line: line.trim(), skills: splitSkills(skills) } }),
    () => setSaved(true),
  );
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        save.mutate(undefined);
      }}
    >
      <h3>{labels.title}</h3>
      {save.error ? <ProblemAlert error={save.error} /> : null}
      <Field label={labels.line} hint={labels.lineHint}>
        <input name="line" maxLength={200} value={line} onChange={(e) => setLine(e.target.value)} />
      </Field>
      <Field label={labels.skills} hint={t('skillsHint')}>
        <input name="skills" value={skills} onChange={(e) => setSkills(e.target.value)} />
      </Field>
      <div className="form-actions row">
        <Button type="submit" variant={initial ? 'secondary' : 'primary'} busy={save.isPending}>
          {labels.submit}
        </Button>
        {saved ? (
          <span role="status" className="muted small">
            {t('saved')}
          </span>
        ) : null}
      </div>
    </form>
  );
}

function SkillFilter({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const { t } = useT('team-finder', messages);
  return (
    <Field label={t('filter')} className="finder-filter">
      <input name="skill" type="search" placeholder={t('filterAll')} value={value} maxLength={32} onChange={(e) => onChange(e.target.value.trim())} />
    </Field>
  );
}

/** The team page of a person in no team: their entry, the teams with room, their requests. */
export function FindATeam({ event }: { event: PublicEvent }) {
  const { t } = useT('team-finder', messages);
  const now = useNow();
  const [skill, setSkill] = useState('');
  const finder = useFinder(event.id, skill);
  const stop = useFinderAction(event.id, () => del('/events/{id}/team-finder/me', { path: { id: event.id } }));
  if (submissionsClosed(event, now)) {
    return (
      <section className="card" id="find" aria-labelledby="finder-title">
        <h2 id="finder-title">{t('title')}</h2>
        <p className="muted">{t('closed')}</p>
      </section>
    );
  }
  if (finder.isPending) return <Loading />;
  if (finder.isError) return <ErrorState error={finder.error} onRetry={() => void finder.refetch()} />;
  const data = finder.data;
  const looking = data?.you.looking ?? null;
  return (
    <section className="card stack finder" id="find" aria-labelledby="finder-title">
      <h2 id="finder-title">{t('title')}</h2>
      <p className="muted">{t('intro')}</p>
      <EntryForm
        eventId={event.id}
        initial={looking}
        labels={{ title: t('entryTitle'), line: t('line'), lineHint: t('lineHint'), skills: t('skills'), submit: looking ? t('update') : t('save') }}
      />
      {looking ? (
        <div className="row">
          <span className="muted small">{t('looking')}</span>
          <Button variant="ghost" className="btn-small" busy={stop.isPending} onClick={() => stop.mutate(undefined)}>
            {t('stop')}
          </Button>
        </div>
      ) : null}
      {data ? (
        <>
          <SkillFilter value={skill} onChange={setSkill} />
          <h3>{t('teamsTitle')}</h3>
          {data.teams.length === 0 ? <p className="muted">{t('noTeams')}</p> : null}
          <ul className="finder-list">
            {data.teams.map((team) => (
              <TeamCard key={team.registration_id} event={event} team={team} max={data.max_team_size} requests={data.my_requests} />
            ))}
          </ul>
          <MyRequests event={event} requests={data.my_requests} />
        </>
      ) : (
        <p className="alert alert-info">{t('notLooking')}</p>
      )}
    </section>
  );
}

function TeamCard({ event, team, max, requests }: { event: PublicEvent; team: FinderTeam; max: number | null; requests: JoinRequest[] }) {
  const { t } = useT('team-finder', messages);
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  const ask = useFinderAction(
    event.id,
    () =>
      post('/events/{id}/team-finder/teams/{registration_id}/requests', {
        path: { id: event.id, registration_id: team.registration_id },
        body: message.trim() ? { message: message.trim() } : {},
      }),
    () => setOpen(false),
  );
  const pending = requests.some((r) => r.registration_id === team.registration_id && r.status === 'pending');
  return (
    <li className="finder-item">
      <div className="spread">
        <strong>{team.team_name}</strong>
        <span className="muted small">{max === null ? t('placesOpen', { count: team.member_count }) : t('places', { count: team.member_count, max })}</span>
      </div>
      <span className="muted small">{t('leader', { name: team.leader_name })}</span>
      {team.line ? <p>{team.line}</p> : null}
      <Skills skills={team.skills} />
      {ask.error ? <ProblemAlert error={ask.error} /> : null}
      {pending ? (
        <span className="badge badge-pending">{t('requested')}</span>
      ) : open ? (
        <form
          className="stack"
          aria-label={t('askTitle', { team: team.team_name })}
          onSubmit={(e) => {
            e.preventDefault();
            ask.mutate(undefined);
          }}
        >
          <Field label={t('message')} hint={t('messageHint')}>
            <textarea name="message" maxLength={500} rows={3} value={message} onChange={(e) => setMessage(e.target.value)} />
          </Field>
          <div className="row">
            <Button type="submit" busy={ask.isPending}>
              {t('send')}
            </Button>
            <Button variant="ghost" onClick={() => setOpen(false)}>
              {t('cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <div>
          <Button variant="secondary" className="btn-small" onClick={() => setOpen(true)} aria-label={t('askTitle', { team: team.team_name })}>
            {t('ask')}
          </Button>
        </div>
      )}
    </li>
  );
}

function MyRequests({ event, requests }: { event: PublicEvent; requests: JoinRequest[] }) {
  const { t } = useT('team-finder', messages);
  const withdraw = useFinderAction(event.id, (id: string) =>
    patch('/events/{id}/join-requests/{request_id}', { path: { id: event.id, request_id: id }, body: { status: 'withdrawn' } }),
  );
  if (requests.length === 0) return null;
  return (
    <>
      <h3>{t('myRequests')}</h3>
      {withdraw.error ? <ProblemAlert error={withdraw.error} /> : null}
      <ul className="finder-list">
        {requests.map((r) => (
          <li key={r.id} className="finder-item spread">
            <span>
              <strong>{r.team_name}</strong> <span className={`badge badge-${r.status === 'accepted' ? 'approved' : r.status}`}>{t(`status.${r.status}`)}</span>
            </span>
            {r.status === 'pending' ? (
              <Button variant="ghost" className="btn-small" busy={withdraw.isPending} onClick={() => withdraw.mutate(r.id)}>
                {t('withdraw')}
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The team page of a leader: what the team needs, the requests to answer, the people looking. */
export function FindTeammates({ event, team }: { event: PublicEvent; team: Team }) {
  const { t } = useT('team-finder', messages);
  const [skill, setSkill] = useState('');
  const finder = useFinder(event.id, skill);
  const answer = useFinderAction(event.id, (a: { id: string; status: 'accepted' | 'declined' }) =>
    patch('/events/{id}/join-requests/{request_id}', { path: { id: event.id, request_id: a.id }, body: { status: a.status } }),
  );
  if (finder.isPending) return <Loading />;
  if (finder.isError) return <ErrorState error={finder.error} onRetry={() => void finder.refetch()} />;
  const data = finder.data;
  if (!data) return null;
  const needs = data.you.team_needs;
  const pending = data.team_requests.filter((r) => r.status === 'pending');
  const full = team.max_team_size !== null && team.members.length >= team.max_team_size;
  return (
    <section className="card stack finder" id="find" aria-labelledby="finder-title">
      <h2 id="finder-title">{t('leaderTitle')}</h2>
      <p className="muted">{t('leaderIntro')}</p>
      <h3>{t('requestsTitle')}</h3>
      {answer.error ? <ProblemAlert error={answer.error} /> : null}
      {pending.length === 0 ? <p className="muted">{t('noRequests')}</p> : null}
      <ul className="finder-list">
        {pending.map((r) => (
          <li key={r.id} className="finder-item stack">
            <strong>{r.name}</strong>
            {r.message ? <p>{r.message}</p> : null}
            <Skills skills={data.people.find((p) => p.user_id === r.user_id)?.skills ?? []} />
            <div className="row">
              <Button className="btn-small" disabled={full} busy={answer.isPending} onClick={() => answer.mutate({ id: r.id, status: 'accepted' })}>
                {t('accept')}
              </Button>
              <Button variant="ghost" className="btn-small" busy={answer.isPending} onClick={() => answer.mutate({ id: r.id, status: 'declined' })}>
                {t('decline')}
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <EntryForm
        eventId={event.id}
        initial={needs && (needs.line || needs.skills.length) ? needs : null}
        labels={{ title: t('neededSkills'), line: t('teamLine'), lineHint: t('teamLineHint'), skills: t('skills'), submit: t('saveNeeds') }}
      />
      <h3>{t('peopleTitle')}</h3>
      <SkillFilter value={skill} onChange={setSkill} />
      {data.people.length === 0 ? <p className="muted">{t('noPeople')}</p> : <p className="muted small">{t('peopleHint')}</p>}
      <ul className="finder-list">
        {data.people.map((p) => (
          <li key={p.user_id} className="finder-item">
            <strong>{p.name}</strong>
            {p.line ? <p>{p.line}</p> : null}
            <Skills skills={p.skills} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The event page's slot for a signed-in person in no team while teams may change: a way to the finder. */
export function FindATeamLink({ event }: { event: PublicEvent }) {
  const { t } = useT('team-finder', messages);
  const now = useNow();
  const mine = useMyRegistration(event.id);
  if (mine.isPending || mine.data || submissionsClosed(event, now)) return null;
  return (
    <div className="card finder-slot">
      <strong>{t('slotTitle')}</strong> <span className="muted">{t('slotText')}</span> <Link href={`/hackathons/${event.id}/team#find`}>{t('slotLink')}</Link>
    </div>
  );
}
