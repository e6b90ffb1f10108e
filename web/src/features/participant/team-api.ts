import { useQuery } from '@tanstack/react-query';
import { ApiProblem, del, get, patch, post, type Answer } from '../../lib/api';

/*
 * The team routes (GET/PATCH/DELETE /events/:id/team, invitations, join, leave, members, leader),
 * typed from the OpenAPI document. One file, so that the pages use them in one way.
 */

export type Team = Answer<'/events/{id}/team'>;
export type TeamMember = Team['members'][number];
export type TeamRole = TeamMember['role'];
export type CreatedInvitation = Answer<'/events/{id}/team/invitations', 'post'>;

export const teamKey = (eventId: string) => ['team', eventId] as const;

/** The caller's team in the event, or null when they are in none (404 not_registered). */
export function useTeam(eventId: string) {
  return useQuery({
    queryKey: teamKey(eventId),
    queryFn: async ({ signal }): Promise<Team | null> => {
      try {
        return await get('/events/{id}/team', { path: { id: eventId }, signal });
      } catch (err) {
        if (err instanceof ApiProblem && err.status === 404 && err.code === 'not_registered') return null;
        throw err;
      }
    },
  });
}

export const teamApi = {
  createInvitation: (eventId: string, body: { email?: string; expires_in_hours?: number }) =>
    post('/events/{id}/team/invitations', { path: { id: eventId }, body }),
  revokeInvitation: (eventId: string, code: string) => del('/events/{id}/team/invitations/{code}', { path: { id: eventId, code } }),
  join: (eventId: string, joinCode: string) => post('/events/{id}/team/join', { path: { id: eventId }, body: { join_code: joinCode } }),
  leave: (eventId: string) => post('/events/{id}/team/leave', { path: { id: eventId } }),
  remove: (eventId: string, userId: string) => del('/events/{id}/team/members/{user_id}', { path: { id: eventId, user_id: userId } }),
  handOver: (eventId: string, userId: string) => post('/events/{id}/team/leader', { path: { id: eventId }, body: { user_id: userId } }),
  withdraw: (eventId: string) => del('/events/{id}/team', { path: { id: eventId } }),
  rename: (eventId: string, teamName: string) => patch('/events/{id}/team', { path: { id: eventId }, body: { team_name: teamName } }),
};
