import { useQuery } from '@tanstack/react-query';
import { get, getWithNext, type Answer, type Item } from '../../lib/api';

/** A reviewer's own review of one project. */
export type Review = Answer<'/events/{id}/projects/{pid}/review'>;
/** One page of the reviewer's assignments: the event, its scale and dimensions, and the projects. */
export type Assignments = Answer<'/events/{id}/review-assignments'>;
export type Assignment = Assignments['projects'][number];
export type ReviewEvent = Item<'/me/review-events'>;

/**
 * One page of GET /events/:id/review-assignments. Its body is an object whose `projects` is the page,
 * and the next cursor is in the Link header.
 */
export async function assignmentsPage(eventId: string, cursor?: string, limit = 50): Promise<{ body: Assignments; next: string | null }> {
  return getWithNext('/events/{id}/review-assignments', { path: { id: eventId }, query: { limit, cursor } });
}

/** Every page at once: the project page needs the whole list (to find its project and the next one). */
export async function allAssignments(eventId: string): Promise<Assignments> {
  let { body, next } = await assignmentsPage(eventId, undefined, 500);
  const projects = [...body.projects];
  while (next) {
    const page = await assignmentsPage(eventId, next, 500);
    projects.push(...page.body.projects);
    body = page.body;
    next = page.next;
  }
  return { ...body, projects };
}

export const assignmentsKey = (eventId: string) => ['review-assignments', eventId] as const;

export function useAllAssignments(eventId: string) {
  return useQuery({ queryKey: [...assignmentsKey(eventId), 'all'], queryFn: () => allAssignments(eventId) });
}

/** Track names (the assignments carry ids only); the public event may be hidden, then ids stay. */
export function useTrackNames(eventId: string) {
  const q = useQuery({
    queryKey: ['event-tracks', eventId],
    queryFn: async () => {
      try {
        const event = await get('/events/{id}', { path: { id: eventId } });
        return Object.fromEntries(event.tracks.map((t) => [t.id, t.name]));
      } catch {
        return {};
      }
    },
    staleTime: 5 * 60_000,
  });
  return q.data ?? {};
}
