import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useSearch } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem } from '../../lib/api';
import { useSession } from '../../lib/session';
import { Button, PageHeader } from '../../ui/controls';
import { ErrorState, Loading, ProblemAlert } from '../../ui/states';
import { EventNotFound, useEvent } from '../shared/event-data';
import { myRegistrationKey } from './data';
import { messages } from './messages';
import { teamApi, teamKey } from './team-api';
import './participant.css';

/** Where a join code's link lands: remembers the address so that sign-up and sign-in come back here. */
export function joinPath(eventId: string, code: string): string {
  return `/hackathons/${eventId}/join?code=${encodeURIComponent(code)}`;
}

/**
 * /hackathons/:id/join?code=…: the link a team leader shares. Signed out: sign up or sign in first,
 * then back here. Signed in: one button joins (POST /events/:id/team/join).
 */
export default function JoinPage({ params }: { params: { id: string } }) {
  const { t } = useT('participant', messages);
  const code = new URLSearchParams(useSearch()).get('code') ?? '';
  const event = useEvent(params.id);
  const { user, loading } = useSession();
  if (event.isPending || loading) return <Loading />;
  if (event.isError) {
    if (event.error instanceof ApiProblem && event.error.status === 404) return <EventNotFound />;
    return <ErrorState error={event.error} onRetry={() => void event.refetch()} />;
  }
  const title = t('join.title', { name: event.data.name });
  const back = joinPath(params.id, code);
  return (
    <section className="narrow stack">
      <PageHeader title={title} />
      {!code ? (
        <div className="alert alert-warn">{t('join.noCode')}</div>
      ) : !user ? (
        <div className="card stack">
          <p>{t('join.signedOut')}</p>
          <div className="row">
            <Link className="btn btn-primary" href={`/signup?next=${encodeURIComponent(back)}`}>
              {t('join.signUp')}
            </Link>
            <Link className="btn btn-secondary" href={`/signin?next=${encodeURIComponent(back)}`}>
              {t('join.signIn')}
            </Link>
          </div>
        </div>
      ) : (
        <JoinButton eventId={params.id} code={code} email={user.email} />
      )}
      <p>
        <Link href={`/hackathons/${params.id}`}>{t('common.backToEvent')}</Link>
      </p>
    </section>
  );
}

function JoinButton({ eventId, code, email }: { eventId: string; code: string; email: string }) {
  const { t } = useT('participant', messages);
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const join = useMutation({
    mutationFn: () => teamApi.join(eventId, code),
    onSuccess: async (team) => {
      client.setQueryData(teamKey(eventId), team);
      await client.invalidateQueries({ queryKey: myRegistrationKey(eventId) });
      navigate(`/hackathons/${eventId}/team`);
    },
  });
  const problem = join.error instanceof ApiProblem ? join.error : null;
  const known = problem && ['join_code_invalid', 'team_full', 'already_in_team', 'submission_closed'].includes(problem.code) ? problem.code : null;
  return (
    <div className="card stack">
      <p>{t('join.signedIn', { email })}</p>
      {known ? (
        <div className="alert alert-error" role="alert">
          <p>{t(`join.errors.${known}`)}</p>
          {known === 'already_in_team' ? (
            <p>
              <Link href={`/hackathons/${eventId}/team`}>{t('common.teamPage')}</Link>
            </p>
          ) : null}
        </div>
      ) : join.error ? (
        <ProblemAlert error={join.error} />
      ) : null}
      <div className="form-actions">
        <Button busy={join.isPending} disabled={known === 'join_code_invalid' || known === 'already_in_team'} onClick={() => join.mutate()}>
          {t('join.join')}
        </Button>
      </div>
    </div>
  );
}
