import { useQuery } from '@tanstack/react-query';
import { apiPage, get } from '../../lib/api';
import type { Dimension } from './scoring';

export interface Review {
  id: string;
  event_id: string;
  project_id: string;
  reviewer_id: string;
  scores: Record<string, number>;
  comment: string | null;
  created_at: string;
  updated_at: string;
}

export interface Assignment {
  project_id: string;
  name: string;
  team_name: string;
  track_id: string | null;
  description: string | null;
  github_url: string;
  project_website: string | null;
  demo_video_url: string | null;
  team_size: number | null;
  submitted_at: string;
  updated_at: string;
  my_review: Review | null;
}

export interface Assignments {
  event: { id: string; name: string; status: string };
  reviewing_open: boolean;
  scale: { min: number; max: number };
  dimensions: Dimension[];
  projects: Assignment[];
}

export interface ReviewEvent {
  event_id: string;
  event_name: string;
  status: string;
  submission_deadline: string;
  projects: number;
  reviewed: number;
}

/**
 * One page of GET /events/:id/review-assignments. Its body is an object whose `projects` is the page,
 * and the next cursor is in the Link header: apiPage reads both (its "items" is the whole body here).
 */
export async function assignmentsPage(eventId: string, cursor?: string, limit = 50): Promise<{ body: Assignments; next: string | null }> {
  const page = await apiPage<unknown>(`/events/${encodeURIComponent(eventId)}/review-assignments`, { query: { limit, cursor } });
  return { body: page.items as unknown as Assignments, next: page.next };
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
        const event = await get<{ tracks?: { id: string; name: string }[] }>(`/events/${encodeURIComponent(eventId)}`);
        return Object.fromEntries((event.tracks ?? []).map((t) => [t.id, t.name]));
      } catch {
        return {};
      }
    },
    staleTime: 5 * 60_000,
  });
  return q.data ?? {};
}
