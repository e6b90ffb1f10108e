import { useQuery } from '@tanstack/react-query';
import { Suspense, type ComponentType } from 'react';
import { EventCover, EventLogo } from '../../ui/event-images';
import { Link } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem, get } from '../../lib/api';
import { browserTimeZone, useFormat } from '../../lib/format';
import { useNow } from '../../lib/now';
import { useSession } from '../../lib/session';
import { CopyButton, PageHeader, StatusBadge } from '../../ui/controls';
import { ErrorState, Loading } from '../../ui/states';
import { registerCurl, weightShares, type Dimension, type FormField, type Track } from './logic';
import { messages } from './messages';
import { useSite } from '../../lib/site';
import { EventNotFound, useEvent, type PublicEvent } from '../shared/event-data';
import './public.css';

/**
 * The signed-in person's own team on this event: a participant part, which this page does not import
 * (features do not import each other). The app shell hands it in (app.tsx).
 */
export type MyStatusSlot = ComponentType<{ event: PublicEvent }>;

export default function EventPage({ params, myStatus }: { params: { id: string }; myStatus?: MyStatusSlot }) {
  const query = useEvent(params.id);
  if (query.isPending) return <Loading />;
  if (query.isError) {
    if (query.error instanceof ApiProblem && query.error.status === 404) return <EventNotFound />;
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  return <EventView event={query.data} myStatus={myStatus} />;
}

function EventView({ event, myStatus: MyStatus }: { event: PublicEvent; myStatus?: MyStatusSlot | undefined }) {
  const { t } = useT('public', messages);
  const form = useQuery({
    queryKey: ['public-event-form', event.id],
    queryFn: ({ signal }) => get('/events/{id}/register', { path: { id: event.id }, signal }),
  });
  const registrationOpen = form.data?.open ?? (event.status === 'open' && event.registration_config.open);
  const fields = form.data?.fields ?? event.registration_config.fields;
  // Joining only makes sense while teams can still register or submit.
  const joinable = event.status === 'open' || event.status === 'active';
  // The gallery opens when the organizer chose: after the submission deadline, or after the results.
  const galleryOpen =
    (event.gallery_visibility === 'after_deadline' && (event.status === 'judging' || event.status === 'ended')) ||
    (event.gallery_visibility === 'after_results' && event.status === 'ended');
  const { user } = useSession();
  const registerHref = `/hackathons/${event.id}/register`;
  return (
    <article className="event-page">
      <EventCover url={event.cover_url} className="event-cover-page" />
      <PageHeader
        logo={<EventLogo url={event.logo_url} />}
        title={event.name}
        subtitle={<StatusBadge status={event.status} />}
        actions={
          <>
            {registrationOpen ? (
              <Link className="btn btn-primary" href={user ? registerHref : `/signup?next=${encodeURIComponent(registerHref)}`}>
                {t('event.register')}
              </Link>
            ) : joinable ? (
              <a className="btn btn-secondary" href="#join-title">
                {t('event.join')}
              </a>
            ) : null}
            {galleryOpen ? (
              <Link className="btn btn-secondary" href={`/hackathons/${event.id}/gallery`}>
                {t('event.seeProjects')}
              </Link>
            ) : null}
          </>
        }
      />
      {user && MyStatus ? (
        <Suspense fallback={null}>
          <MyStatus event={event} />
        </Suspense>
      ) : null}
      {event.status === 'ended' ? (
        <div className="alert alert-ok result-banner">
          <strong>{t('event.resultsPublished')}</strong>{' '}
          <Link className="btn btn-primary btn-small" href={`/hackathons/${event.id}/result`}>
            {t('event.seeResults')}
          </Link>
        </div>
      ) : null}
      {event.status === 'cancelled' ? <div className="alert alert-warn">{t('event.cancelled')}</div> : null}
      {galleryOpen ? <VoteInvite event={event} /> : null}
      <div className="event-layout">
        {/* First in reading order (the dates matter most on a phone); beside the content on wide screens. */}
        <aside className="event-side">
          <Timeline event={event} />
        </aside>
        <div className="event-main stack">
          <section className="card" aria-labelledby="about-title">
            <h2 id="about-title">{t('event.about')}</h2>
            <Description html={event.description_html} />
          </section>
          <Tracks tracks={event.tracks} />
          <Scoring dimensions={event.dimensions} models={event.models} />
          <FormFields fields={fields} hasTracks={event.tracks.length > 0} autoApprove={form.data?.auto_approve ?? event.registration_config.auto_approve} />
          {joinable ? <HowToJoin event={event} fields={fields} registrationOpen={registrationOpen} /> : null}
        </div>
      </div>
    </article>
  );
}

/**
 * While the people's-choice vote is open: an invitation to vote in the gallery, with the votes the
 * signed-in visitor has left (or a way to sign in first).
 */
function VoteInvite({ event }: { event: PublicEvent }) {
  const { t } = useT('public', messages);
  const f = useFormat();
  const { user } = useSession();
  const now = useNow();
  const closesAt = event.voting.closes_at;
  const open =
    event.voting.enabled &&
    event.status !== 'ended' &&
    event.status !== 'cancelled' &&
    closesAt !== null &&
    now >= Date.parse(event.voting.opens_at) &&
    now < Date.parse(closesAt);
  const mine = useQuery({
    queryKey: ['my-votes', event.id],
    queryFn: ({ signal }) => get('/events/{id}/votes/me', { path: { id: event.id }, signal }),
    enabled: Boolean(user) && open,
  });
  if (!open || !closesAt) return null;
  const gallery = `/hackathons/${event.id}/gallery`;
  // Votes are counted per track when the vote is per track: the votes left are told per track then.
  const leftIn = (trackId: string | null) =>
    Math.max(0, event.voting.votes_per_person - (mine.data?.votes ?? []).filter((v) => !event.voting.per_track || v.track_id === trackId).length);
  const left = !mine.data
    ? null
    : event.voting.per_track && event.tracks.length > 0
      ? event.tracks.map((tr) => t('event.votesLeftTrack', { track: tr.name, count: leftIn(tr.id) })).join(' · ')
      : t('event.votesLeft', { count: leftIn(null) });
  return (
    <section className="alert alert-info vote-invite" aria-labelledby="vote-invite-title">
      <h2 id="vote-invite-title" className="vote-invite-title">
        {t('event.voteTitle')}
      </h2>
      <p className="vote-invite-text">
        {left !== null ? <strong className="vote-invite-left">{left}</strong> : null}
        {left !== null ? ' ' : null}
        {t('event.voteCloses', { date: f.dateTime(closesAt) })}
      </p>
      <Link className="btn btn-primary btn-small" href={user ? gallery : `/signin?next=${encodeURIComponent(gallery)}`}>
        {user ? t('event.voteNow') : t('event.voteSignIn')}
      </Link>
    </section>
  );
}

function Description({ html }: { html: string }) {
  const { t } = useT('public', messages);
  if (!html) return <p className="muted">{t('event.noDescription')}</p>;
  // The server renders the organizer's Markdown and sanitises it (no raw HTML, no script-capable
  // links or attributes: src/core/markdown.ts); the page shows exactly that HTML.
  return <div className="description prose" dangerouslySetInnerHTML={{ __html: html }} />;
}

function Timeline({ event }: { event: PublicEvent }) {
  const { t } = useT('public', messages);
  const f = useFormat();
  const zone = browserTimeZone();
  // The organizer's own zone beside the reader's, when they differ ("9:00 in Berlin" is what was meant).
  const eventZone = event.time_zone && event.time_zone !== zone && differentZones(event.time_zone, zone) ? event.time_zone : null;
  const now = useNow();
  const steps: Array<{ key: string; label: string; at: string | null }> = [
    { key: 'reg', label: t('event.registrationDeadline'), at: event.registration_deadline },
    { key: 'sub', label: t('event.submissionDeadline'), at: event.submission_deadline },
    { key: 'res', label: t('event.resultsAnnounced'), at: event.result_announced_at },
  ];
  return (
    <section className="card" aria-labelledby="timeline-title">
      <h2 id="timeline-title">{t('event.timeline')}</h2>
      <ol className="timeline">
        {steps.map((s) => {
          const past = s.at !== null && new Date(s.at).getTime() <= now;
          return (
            <li key={s.key} className={past ? 'timeline-step timeline-past' : 'timeline-step'}>
              <span className="timeline-label">{s.label}</span>
              {s.at ? (
                <>
                  <time dateTime={s.at} className="timeline-date">
                    {f.dateTime(s.at, zone)}
                  </time>
                  {eventZone ? (
                    <span className="muted small timeline-event-zone">
                      {t('event.eventZone', { zone: eventZone.replace(/_/g, ' '), time: f.dateTime(s.at, eventZone) })}
                    </span>
                  ) : null}
                  <span className="muted small">{f.relative(s.at, now)}</span>
                </>
              ) : (
                <span className="muted">{t('event.resultsPending')}</span>
              )}
            </li>
          );
        })}
      </ol>
      <p className="muted small">{t('event.timeZone', { zone })}</p>
    </section>
  );
}

/** True when the names are two zones, not two spellings of one (Asia/Calcutta, Asia/Kolkata); false for a name unknown here. */
function differentZones(a: string, b: string): boolean {
  try {
    const canon = (z: string) => new Intl.DateTimeFormat('en', { timeZone: z }).resolvedOptions().timeZone;
    return canon(a) !== canon(b);
  } catch {
    return false;
  }
}

function Tracks({ tracks }: { tracks: Track[] }) {
  const { t } = useT('public', messages);
  return (
    <section className="card" aria-labelledby="tracks-title">
      <h2 id="tracks-title">{t('event.tracks')}</h2>
      {tracks.length === 0 ? (
        <p className="muted">{t('event.noTracks')}</p>
      ) : (
        <ul className="track-list">
          {tracks.map((track) => (
            <li key={track.id} className="track">
              <div>
                <h3>{track.name}</h3>
                <p className="muted small">
                  {t('event.trackId')}: <code>{track.id}</code>
                </p>
              </div>
              <p className="track-prize">
                <span className="sr-only">{t('event.prize')}: </span>
                {track.prize ? <strong>{track.prize}</strong> : <span className="muted">{t('event.noPrize')}</span>}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Scoring({ dimensions, models }: { dimensions: Dimension[]; models: string[] }) {
  const { t } = useT('public', messages);
  const f = useFormat();
  return (
    <section className="card" aria-labelledby="scoring-title">
      <h2 id="scoring-title">{t('event.scoring')}</h2>
      <p className="muted">{t('event.scoringText')}</p>
      <ul className="weights">
        {weightShares(dimensions).map((d) => (
          <li key={d.name} className="weight">
            <div className="spread">
              <span className="weight-name">{d.name}</span>
              <span className="muted small">
                {t('event.weight')} {f.number(d.weight)} · <strong>{f.percent(d.share)}</strong>
              </span>
            </div>
            <div className="weight-bar" aria-hidden="true">
              <span style={{ width: `${Math.round(d.share * 100)}%` }} />
            </div>
          </li>
        ))}
      </ul>
      {models.length > 0 ? (
        <p className="small">
          {t('event.judgedBy')}:{' '}
          {models.map((m, i) => (
            <span key={m}>
              {i > 0 ? ', ' : null}
              <code>{m}</code>
            </span>
          ))}
        </p>
      ) : (
        <p className="small muted">{t('event.humanOnly')}</p>
      )}
    </section>
  );
}

function FormFields({ fields, hasTracks, autoApprove }: { fields: FormField[]; hasTracks: boolean; autoApprove: boolean }) {
  const { t } = useT('public', messages);
  return (
    <section className="card" aria-labelledby="form-title">
      <h2 id="form-title">{t('event.form')}</h2>
      {fields.length === 0 ? (
        <p className="muted">{t('event.noFields')}</p>
      ) : (
        <>
          <p>{t('event.formText', { track: hasTracks ? t('event.formTrack') : '' })}</p>
          <div className="table-wrap" role="region" aria-labelledby="form-title" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('event.fieldLabel')}</th>
                  <th scope="col">{t('event.fieldKey')}</th>
                  <th scope="col">{t('event.fieldType')}</th>
                  <th scope="col">{t('event.required')}</th>
                </tr>
              </thead>
              <tbody>
                {fields.map((field) => (
                  <tr key={field.key}>
                    <td>{field.label ?? field.key}</td>
                    <td>
                      <code>{field.key}</code>
                    </td>
                    <td>{t(`event.types.${field.type ?? 'text'}`, { defaultValue: field.type })}</td>
                    <td>{field.required ? t('event.required') : <span className="muted">{t('event.optional')}</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <p className="muted small">{autoApprove ? t('event.autoApprove') : t('event.manualApprove')}</p>
    </section>
  );
}

function HowToJoin({ event, fields, registrationOpen }: { event: PublicEvent; fields: FormField[]; registrationOpen: boolean }) {
  const { t } = useT('public', messages);
  const f = useFormat();
  const { user } = useSession();
  const site = useSite();
  const origin = (site.data?.public_url ?? window.location.origin).replace(/\/+$/, '');
  const command = registerCurl(origin, event.id, event.tracks, fields);
  const registerHref = `/hackathons/${event.id}/register`;
  return (
    <section className="card join" aria-labelledby="join-title">
      <h2 id="join-title">{t('event.join')}</h2>
      <p className={registrationOpen ? 'alert alert-info' : 'alert alert-warn'}>
        {registrationOpen ? t('event.registrationOpen', { date: f.dateTime(event.registration_deadline) }) : t('event.registrationClosed')}
      </p>
      <div className="join-ways">
        <section aria-labelledby="join-person">
          <h3 id="join-person">{t('event.asPerson')}</h3>
          <ol className="steps">
            <li>
              {user ? (
                t('event.personSteps.signedIn', { email: user.email })
              ) : (
                <>
                  {t('event.personSteps.account')}{' '}
                  <span className="row join-links">
                    <Link href={`/signin?next=${encodeURIComponent(registerHref)}`}>{t('event.signIn')}</Link>
                    <Link href={`/signup?next=${encodeURIComponent(registerHref)}`}>{t('event.signUp')}</Link>
                  </span>
                </>
              )}
            </li>
            <li>
              {t('event.personSteps.form')}{' '}
              {registrationOpen ? (
                <Link className="btn btn-primary btn-small" href={registerHref}>
                  {t('event.register')}
                </Link>
              ) : null}
            </li>
            <li>{t('event.personSteps.invite')}</li>
            <li>{t('event.personSteps.project')}</li>
          </ol>
          <details className="api-way">
            <summary>{t('event.personSteps.api')}</summary>
            <p className="small">
              {t('event.personSteps.key')} <Link href="/api-keys">{t('event.apiKeys')}</Link>
            </p>
            <pre className="command" role="region" aria-label={t('event.command')} tabIndex={0}>
              <code>{command}</code>
            </pre>
            <CopyButton text={command} label={t('event.copyCommand')} />
          </details>
        </section>
        <section aria-labelledby="join-agent">
          <h3 id="join-agent">{t('event.asAgent')}</h3>
          <p>{t('event.agentText')}</p>
          <ul className="agent-links">
            <li>
              <span className="muted small">{t('event.agentSkill')}</span>
              <a href="/api/v1/skill.md">
                <code>{origin}/api/v1/skill.md</code>
              </a>
            </li>
            <li>
              <span className="muted small">{t('event.agentScript')}</span>
              <a href="/scripts/register.sh">
                <code>{origin}/scripts/register.sh</code>
              </a>
            </li>
            <li>
              <span className="muted small">{t('event.agentMcp')}</span>
              <code>{origin}/api/v1/mcp</code>
            </li>
            <li>
              <span className="muted small">{t('event.agentDocs')}</span>
              <a href="/docs">
                <code>{origin}/docs</code>
              </a>
            </li>
          </ul>
        </section>
      </div>
    </section>
  );
}
