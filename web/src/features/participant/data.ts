import { useQuery } from '@tanstack/react-query';
import { ApiProblem, get, type Answer } from '../../lib/api';

/** GET /events/:id/my-registration: the caller's team's registration and project. */
export type MyRegistration = Answer<'/events/{id}/my-registration'>;
export type Project = NonNullable<MyRegistration['project']>;
/** GET /events/:id/register: the event's registration form. */
export type RegistrationForm = Answer<'/events/{id}/register'>;

export const myRegistrationKey = (eventId: string) => ['my-registration', eventId] as const;

/** The signed-in person's registration for the event, or null when they are in no team of it (404 not_registered). */
export function useMyRegistration(eventId: string, enabled = true) {
  return useQuery({
    queryKey: myRegistrationKey(eventId),
    enabled,
    queryFn: async ({ signal }): Promise<MyRegistration | null> => {
      try {
        return await get('/events/{id}/my-registration', { path: { id: eventId }, signal });
      } catch (err) {
        if (err instanceof ApiProblem && err.status === 404 && err.code === 'not_registered') return null;
        throw err;
      }
    },
  });
}

export function useRegistrationForm(eventId: string) {
  return useQuery({
    queryKey: ['public-event-form', eventId],
    queryFn: ({ signal }) => get('/events/{id}/register', { path: { id: eventId }, signal }),
  });
}

/** Who last changed the project, when the server says (older projects and servers do not). */
export function updatedBy(project: Project): { user_id: string; name: string } | null {
  const by = (project as { updated_by?: { user_id: string; name: string } | null }).updated_by;
  return by ?? null;
}

/** True when the submission deadline has passed or the event no longer takes projects. */
export function submissionsClosed(event: { status: string; submission_deadline: string }, now: number): boolean {
  if (event.status !== 'open' && event.status !== 'active') return true;
  return new Date(event.submission_deadline).getTime() <= now;
}
