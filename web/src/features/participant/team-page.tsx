import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { useNow } from '../../lib/now';
import { useSession } from '../../lib/session';
import { Button, ConfirmDialog, CopyButton, PageHeader } from '../../ui/controls';
import { Field } from '../../ui/form';
import { ErrorState, Loading, ProblemAlert } from '../../ui/states';
import { EventNotFound, useEvent, type PublicEvent } from '../shared/event-data';
import { myRegistrationKey, submissionsClosed } from './data';
import { messages } from './messages';
import { NextSteps, StatusBox } from './status-box';
import { teamApi, teamKey, useTeam, type CreatedInvitation, type Team, type TeamMember } from './team-api';
import { TeamResultSlot } from './team-result-slot';
import { FindATeam, FindTeammates } from './team-finder';
import { TeamAnnouncements } from './team-announcements';
import './participant.css';

/** /hackathons/:id/team: the caller's team, its status, members and invitations, and what comes next. */
export default function TeamPage({ params }: { params: { id: string } }) {
  const { t } = useT('participant', messages);
  const event = useEvent(params.id);
  const team = useTeam(params.id);
  if (event.isPending || team.isPending) return <Loading />;
  if (event.isError) {
    if (event.error instanceof ApiProblem && event.error.status === 404) return <EventNotFound />;
    return <ErrorState error={event.error} onRetry={() => void event.refetch()} />;
  }
  if (team.isError) return <ErrorState error={team.error} onRetry={() => void team.refetch()} />;
  if (!team.data) {
    return (
      <section className="medium stack">
        <PageHeader title={t('team.noTeamTitle')} subtitle={event.data.name} />
        <div className="alert alert-info">{t('team.noTeam')}</div>
        <p className="row">
          <Link className="btn btn-primary" href={`/hackathons/${params.id}/register`}>
            {t('common.register')}
          </Link>
          <Link href={`/hackathons/${params.id}`}>{t('common.backToEvent')}</Link>
        </p>
        <FindATeam event={event.data} />
      </section>
    );
  }
  return <TeamView event={event.data} team={team.data} />;
}

function useTeamAction<A>(eventId: string, fn: (arg: A) => Promise<unknown>, after?: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: teamKey(eventId) }),
        client.invalidateQueries({ queryKey: myRegistrationKey(eventId) }),
        client.invalidateQueries({ queryKey: ['my-hackathons'] }),
      ]);
      after?.();
    },
  });
}

function TeamView({ event, team }: { event: PublicEvent; team: Team }) {
  const { t } = useT('participant', messages);
  const now = useNow();
  const leader = team.your_role === 'leader';
  // Once the event has ended (results published) or was cancelled, its teams can no longer change:
  // no member actions, no withdrawal, and no "what happens next" of deadlines that have passed.
  const over = event.status === 'ended' || event.status === 'cancelled';
  const active = !over && (team.status === 'pending' || team.status === 'approved');
  const joinable = active && !submissionsClosed(event, now);
  return (
    <article className="team-page stack">
      <PageHeader
        title={team.team_name}
        subtitle={
          <Link href={`/hackathons/${event.id}`} className="muted">
            {event.name}
          </Link>
        }
        actions={
          team.status === 'approved' || team.project ? (
            <Link className="btn btn-primary" href={`/hackathons/${event.id}/project`}>
              {team.project ? t('team.openProject') : t('team.submitProject')}
            </Link>
          ) : null
        }
      />
      <StatusBox
        event={event}
        showLinks={false}
        status={{
          team_name: team.team_name,
          status: team.status,
          reason: team.reason,
          final: team.rejected_final,
          hasProject: team.project !== null,
          projectName: team.project?.project_name ?? null,
          reapplyUntil: null,
        }}
      />
      {team.status === 'rejected' && !team.rejected_final ? (
        <p>
          <Link className="btn btn-primary" href={`/hackathons/${event.id}/register`}>
            {t('common.reapply')}
          </Link>
        </p>
      ) : null}
      <TeamResultSlot event={event} team={team} />
      <TeamAnnouncements eventId={event.id} />
      <div className="team-layout">
        <div className="stack">
          {leader && team.status === 'pending' ? <RenameTeam event={event} team={team} /> : null}
          <Members event={event} team={team} active={active} />
          {leader && joinable ? <Invitations event={event} team={team} /> : null}
          {leader && joinable ? <FindTeammates event={event} team={team} /> : null}
        </div>
        <div className="stack">
          {over ? null : <NextSteps event={event} />}
          {active ? <LeaveOrWithdraw event={event} team={team} /> : null}
        </div>
      </div>
    </article>
  );
}

/** The leader renames the team while the registration is pending (PATCH …/team); a taken name is shown at the field. */
function RenameTeam({ event, team }: { event: PublicEvent; team: Team }) {
  const { t } = useT('participant', messages);
  const [name, setName] = useState(team.team_name);
  const [saved, setSaved] = useState(false);
  const rename = useTeamAction(
    event.id,
    (teamName: string) => teamApi.rename(event.id, teamName),
    () => setSaved(true),
  );
  const problem = rename.error instanceof ApiProblem ? rename.error : null;
  const fieldError = problem?.fieldError('team_name') ?? (problem?.code === 'team_name_taken' ? problem.detail : undefined);
  return (
    <section className="card" aria-labelledby="rename-title">
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(false);
          rename.mutate(name.trim());
        }}
      >
        <h2 id="rename-title">{t('team.renameTitle')}</h2>
        {problem && !fieldError ? <ProblemAlert error={rename.error} /> : null}
        <Field label={t('team.renameLabel')} hint={t('team.renameHint')} error={fieldError}>
          <input
            name="team_name"
            required
            maxLength={80}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setSaved(false);
            }}
          />
        </Field>
        <div className="form-actions row">
          <Button type="submit" variant="secondary" busy={rename.isPending} disabled={name.trim() === '' || name.trim() === team.team_name}>
            {t('team.renameSave')}
          </Button>
          {saved ? (
            <span role="status" className="muted small">
              {t('team.renamed')}
            </span>
          ) : null}
        </div>
      </form>
    </section>
  );
}

function Members({ event, team, active }: { event: PublicEvent; team: Team; active: boolean }) {
  const { t } = useT('participant', messages);
  const f = useFormat();
  const { user } = useSession();
  const leader = team.your_role === 'leader';
  const [confirm, setConfirm] = useState<{ kind: 'remove' | 'handOver'; member: TeamMember } | null>(null);
  const close = () => setConfirm(null);
  const remove = useTeamAction(event.id, (m: TeamMember) => teamApi.remove(event.id, m.user_id), close);
  const handOver = useTeamAction(event.id, (m: TeamMember) => teamApi.handOver(event.id, m.user_id), close);
  const size = team.max_team_size ? t('team.sizeOf', { count: team.members.length, max: team.max_team_size }) : t('team.size', { count: team.members.length });
  const error = remove.error ?? handOver.error;
  return (
    <section className="card" aria-labelledby="members-title">
      <div className="spread">
        <h2 id="members-title">{t('team.members')}</h2>
        <span className="muted small">{size}</span>
      </div>
      {active && team.min_team_size && team.members.length < team.min_team_size ? (
        <p className="alert alert-warn">{t('team.tooSmall', { count: team.min_team_size - team.members.length, min: team.min_team_size })}</p>
      ) : null}
      {error ? <ProblemAlert error={error} /> : null}
      <ul className="member-list">
        {team.members.map((m) => (
          <li key={m.user_id} className="member">
            <div className="member-who">
              <strong>{m.name}</strong>
              {m.user_id === user?.id ? <span className="muted small"> ({t('team.you')})</span> : null}
              <span className={`badge ${m.role === 'leader' ? 'badge-approved' : 'badge-draft'}`}>{t(`roles.${m.role}`)}</span>
              <span className="muted small member-email">{m.email}</span>
              <span className="muted small">{t('team.joined', { date: f.date(m.joined_at) })}</span>
            </div>
            {leader && active && m.role !== 'leader' ? (
              <div className="row">
                <Button
                  variant="secondary"
                  className="btn-small"
                  onClick={() => setConfirm({ kind: 'handOver', member: m })}
                  aria-label={t('team.handOverTo', { name: m.name })}
                >
                  {t('team.handOver')}
                </Button>
                <Button
                  variant="ghost"
                  className="btn-small"
                  onClick={() => setConfirm({ kind: 'remove', member: m })}
                  aria-label={t('team.removeName', { name: m.name })}
                >
                  {t('team.remove')}
                </Button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={confirm?.kind === 'remove'}
        title={t('team.removeTitle', { name: confirm?.member.name ?? '' })}
        confirmLabel={t('team.remove')}
        variant="danger"
        busy={remove.isPending}
        onConfirm={() => confirm && remove.mutate(confirm.member)}
        onClose={close}
      >
        <p>{t('team.removeText')}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm?.kind === 'handOver'}
        title={t('team.handOverTitle', { name: confirm?.member.name ?? '' })}
        confirmLabel={t('team.handOver')}
        busy={handOver.isPending}
        onConfirm={() => confirm && handOver.mutate(confirm.member)}
        onClose={close}
      >
        <p>{t('team.handOverText')}</p>
      </ConfirmDialog>
    </section>
  );
}

const EXPIRIES = [24, 72, 168, 720] as const;

function Invitations({ event, team }: { event: PublicEvent; team: Team }) {
  const { t } = useT('participant', messages);
  const f = useFormat();
  const [hours, setHours] = useState<number>(72);
  const [email, setEmail] = useState('');
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const create = useTeamAction(event.id, async (body: { email?: string; expires_in_hours: number }) => {
    const answer = await teamApi.createInvitation(event.id, body);
    setCreated(answer);
    setEmail('');
    return answer;
  });
  const revoke = useTeamAction(event.id, (id: string) => teamApi.revokeInvitation(event.id, id));
  const full = team.max_team_size !== null && team.members.length >= team.max_team_size;
  const problem = create.error instanceof ApiProblem ? create.error : null;
  return (
    <section className="card stack" aria-labelledby="invite-title">
      <h2 id="invite-title">{t('invite.title')}</h2>
      <p className="muted small">{t('invite.intro')}</p>
      {full ? <p className="alert alert-info">{t('invite.full')}</p> : null}
      {created ? (
        <div className="once-box invite-created" role="status">
          <p>
            <strong>{t('invite.created')}</strong> {t('invite.once', { date: f.dateTime(created.expires_at) })}
          </p>
          <code className="invite-link">{created.join_url}</code>
          <div className="row">
            <CopyButton text={created.join_url} label={t('invite.copy')} />
            <Button variant="ghost" className="btn-small" onClick={() => setCreated(null)}>
              {t('invite.done')}
            </Button>
          </div>
          {created.email ? <p className="muted small">{t('invite.mailed', { email: created.email })}</p> : null}
        </div>
      ) : null}
      <form
        className="invite-form"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({ expires_in_hours: hours, ...(email.trim() ? { email: email.trim() } : {}) });
        }}
      >
        {problem && !(problem.code === 'validation_failed' && problem.fieldError('email')) ? <ProblemAlert error={create.error} /> : null}
        <Field label={t('invite.email')} hint={t('invite.emailHint')} error={problem?.fieldError('email')}>
          <input type="email" name="email" autoComplete="off" maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field label={t('invite.expires')}>
          <select value={hours} onChange={(e) => setHours(Number(e.target.value))}>
            {EXPIRIES.map((h) => (
              <option key={h} value={h}>
                {h < 48 ? t('invite.hours', { count: h }) : t('invite.days', { count: h / 24 })}
              </option>
            ))}
          </select>
        </Field>
        <div className="form-actions">
          <Button type="submit" busy={create.isPending} disabled={full}>
            {t('invite.create')}
          </Button>
        </div>
      </form>
      <h3>{t('invite.open')}</h3>
      {team.invitations.length === 0 ? (
        <p className="muted small">{t('invite.none')}</p>
      ) : (
        <ul className="invite-list">
          {team.invitations.map((inv) => (
            <li key={inv.id} className="spread">
              <span>
                {inv.email ?? t('invite.link')} <span className="muted small">{t('invite.expiresAt', { date: f.dateTime(inv.expires_at) })}</span>
              </span>
              <Button
                variant="ghost"
                className="btn-small"
                busy={revoke.isPending && revoke.variables === inv.id}
                onClick={() => revoke.mutate(inv.id)}
                aria-label={t('invite.revokeOne', { what: inv.email ?? f.dateTime(inv.created_at) })}
              >
                {t('invite.revoke')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {revoke.error ? <ProblemAlert error={revoke.error} /> : null}
    </section>
  );
}

function LeaveOrWithdraw({ event, team }: { event: PublicEvent; team: Team }) {
  const { t } = useT('participant', messages);
  const [, navigate] = useLocation();
  const [open, setOpen] = useState<'leave' | 'withdraw' | null>(null);
  const leader = team.your_role === 'leader';
  const alone = team.members.length === 1;
  const leave = useTeamAction(
    event.id,
    () => teamApi.leave(event.id),
    () => navigate(`/hackathons/${event.id}`),
  );
  const withdraw = useTeamAction(
    event.id,
    () => teamApi.withdraw(event.id),
    () => setOpen(null),
  );
  return (
    <section className="card stack danger-zone" aria-labelledby="leave-title">
      <h2 id="leave-title">{leader ? t('leave.leaderTitle') : t('leave.title')}</h2>
      {leader ? (
        <p className="muted small">{alone ? t('leave.leaderAlone') : t('leave.leaderHandOver')}</p>
      ) : (
        <p className="muted small">{t('leave.memberText')}</p>
      )}
      {leave.error ? <ProblemAlert error={leave.error} /> : null}
      {withdraw.error ? <ProblemAlert error={withdraw.error} /> : null}
      <div className="row">
        {!leader ? (
          <Button variant="danger" onClick={() => setOpen('leave')}>
            {t('leave.leave')}
          </Button>
        ) : (
          <Button variant="danger" onClick={() => setOpen('withdraw')}>
            {t('leave.withdraw')}
          </Button>
        )}
      </div>
      <ConfirmDialog
        open={open === 'leave'}
        title={t('leave.leaveTitle')}
        confirmLabel={t('leave.leave')}
        variant="danger"
        busy={leave.isPending}
        onConfirm={() => leave.mutate(undefined)}
        onClose={() => setOpen(null)}
      >
        <p>{t('leave.leaveText')}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={open === 'withdraw'}
        title={t('leave.withdrawTitle')}
        confirmLabel={t('leave.withdraw')}
        variant="danger"
        busy={withdraw.isPending}
        onConfirm={() => withdraw.mutate(undefined)}
        onClose={() => setOpen(null)}
      >
        <p>{t('leave.withdrawText')}</p>
      </ConfirmDialog>
    </section>
  );
}
