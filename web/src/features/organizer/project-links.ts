/** A project's review page (project-reviews-page.tsx), linked from the leaderboard, projects and AI reviews tabs. */
export function projectReviewsHref(eventId: string, projectId: string): string {
  return `/events/${encodeURIComponent(eventId)}/projects/${encodeURIComponent(projectId)}`;
}
