import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useT } from '../../i18n';
import { del, get, post } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { useNow } from '../../lib/now';
import { useSession } from '../../lib/session';
import { Button } from '../../ui/controls';
import { ProblemAlert } from '../../ui/states';
import type { PublicEvent } from '../shared/event-data';
import { messages } from './messages';

/**
 * People's choice on a project page: while the event's vote is open, a signed-in person votes for
 * the project or withdraws the vote, and sees how many votes they have left; signed out, a link to
 * sign in and come back. Counts are never shown here (they stay hidden until the results).
 */
export function VoteBox({ event, projectId, trackId }: { event: PublicEvent; projectId: string; trackId: string | null }) {
  const { t } = useT('showcase', messages);
  const f = useFormat();
  const { user } = useSession();
  const client = useQueryClient();
  const now = useNow();
  const key = ['my-votes', event.id];
  const mine = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => get('/events/{id}/votes/me', { path: { id: event.id }, signal }),
    enabled: Boolean(user) && event.voting.enabled,
  });
  const refresh = () => void client.invalidateQueries({ queryKey: key });
  const vote = useMutation({
    mutationFn: () => post('/events/{id}/gallery/{project_id}/vote', { path: { id: event.id, project_id: projectId } }),
    onSuccess: refresh,
  });
  const withdraw = useMutation({
    mutationFn: () => del('/events/{id}/gallery/{project_id}/vote', { path: { id: event.id, project_id: projectId } }),
    onSuccess: refresh,
  });
  if (!event.voting.enabled) return null;
  const closesAt = event.voting.closes_at;
  const open =
    event.status !== 'ended' && event.status !== 'cancelled' && now >= Date.parse(event.voting.opens_at) && closesAt !== null && now < Date.parse(closesAt);
  const here = `/hackathons/${event.id}/projects/${projectId}`;
  const votes = mine.data?.votes ?? [];
  const voted = votes.some((v) => v.project_id === projectId);
  const own = mine.data?.own_project_ids.includes(projectId) ?? false;
  const used = votes.filter((v) => !event.voting.per_track || v.track_id === trackId).length;
  const left = Math.max(0, event.voting.votes_per_person - used);
  return (
    <section className="card vote-box" aria-labelledby="vote-title">
      <h2 id="vote-title">{t('vote.title')}</h2>
      {!open ? (
        <p className="muted">{now < Date.parse(event.voting.opens_at) ? t('vote.opensAt', { date: f.dateTime(event.voting.opens_at) }) : t('vote.closed')}</p>
      ) : !user ? (
        <p>
          <Link href={`/signin?next=${encodeURIComponent(here)}`}>{t('vote.signIn')}</Link>
        </p>
      ) : (
        <>
          <p className="muted small">{closesAt ? t('vote.closesAt', { date: f.dateTime(closesAt) }) : null}</p>
          {own ? (
            <p className="muted">{t('vote.own')}</p>
          ) : voted ? (
            <>
              <p role="status" className="vote-done">
                {t('vote.voted')}
              </p>
              <Button variant="secondary" busy={withdraw.isPending} onClick={() => withdraw.mutate()}>
                {t('vote.withdraw')}
              </Button>
            </>
          ) : (
            <>
              <p>{event.voting.per_track ? t('vote.leftInTrack', { count: left }) : t('vote.left', { count: left })}</p>
              <Button busy={vote.isPending} onClick={() => vote.mutate()}>
                {t('vote.cast')}
              </Button>
            </>
          )}
          <ProblemAlert error={vote.error ?? withdraw.error} />
        </>
      )}
    </section>
  );
}
