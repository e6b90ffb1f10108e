import { useQuery } from '@tanstack/react-query';
import { ApiProblem, callApi } from '../../lib/api';
import type { Project } from './data';

/*
 * The team routes (GET/PATCH/DELETE /events/:id/team, invitations, join, leave, members, leader),
 * shaped as docs/api.md describes them. One file, so that the pages use them in one way.
 */

export type TeamRole = 'leader' | 'member';

export interface TeamMember {
  user_id: string;
  name: string;
  email: string;
  role: TeamRole;
  joined_at: string;
}

export interface TeamInvitation {
  id: string;
  email: string | null;
  created_at: string;
  expires_at: string;
}

export interface Team {
  event_id: string;
  registration_id: string;
  team_name: string;
  status: string;
  reason: string | null;
  rejected_final: boolean;
  track_id: string | null;
  your_role: TeamRole;
  leader: { user_id: string; name: string };
  members: TeamMember[];
  max_team_size: number | null;
  min_team_size: number | null;
  invitations: TeamInvitation[];
  project: Project | null;
  result: unknown;
}

export interface CreatedInvitation {
  id: string;
  join_code: string;
  join_url: string;
  expires_at: string;
  email: string | null;
}

const path = (eventId: string, rest = '') => `/events/${encodeURIComponent(eventId)}/team${rest}`;

export const teamKey = (eventId: string) => ['team', eventId] as const;

/** The caller's team in the event, or null when they are in none (404 not_registered). */
export function useTeam(eventId: string) {
  return useQuery({
    queryKey: teamKey(eventId),
    queryFn: async ({ signal }): Promise<Team | null> => {
      try {
        return (await callApi('GET', path(eventId), { signal })) as Team;
      } catch (err) {
        if (err instanceof ApiProblem && err.status === 404 && err.code === 'not_registered') return null;
        throw err;
      }
    },
  });
}

export const teamApi = {
  createInvitation: (eventId: string, body: { email?: string; expires_in_hours?: number }) =>
    callApi('POST', path(eventId, '/invitations'), { body }) as Promise<CreatedInvitation>,
  revokeInvitation: (eventId: string, id: string) => callApi('DELETE', path(eventId, `/invitations/${encodeURIComponent(id)}`)) as Promise<void>,
  join: (eventId: string, joinCode: string) => callApi('POST', path(eventId, '/join'), { body: { join_code: joinCode } }) as Promise<Team>,
  leave: (eventId: string) => callApi('POST', path(eventId, '/leave')) as Promise<void>,
  remove: (eventId: string, userId: string) => callApi('DELETE', path(eventId, `/members/${encodeURIComponent(userId)}`)) as Promise<void>,
  handOver: (eventId: string, userId: string) => callApi('POST', path(eventId, '/leader'), { body: { user_id: userId } }) as Promise<Team>,
  withdraw: (eventId: string) => callApi('DELETE', path(eventId)) as Promise<Team>,
  rename: (eventId: string, teamName: string) => callApi('PATCH', path(eventId), { body: { team_name: teamName } }) as Promise<Team>,
};
