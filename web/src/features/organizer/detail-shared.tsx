import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useT } from '../../i18n';
import { apiPage, get, type Item, type Page, type Query } from '../../lib/api';
import type { EventDetail } from './detail-types';
import { messages } from './messages';

/**
 * Live updates by polling: the visible tab's data and the stats are asked again every 5 s while the
 * browser tab is visible (react-query pauses intervals of hidden tabs). Polling a few grouped counts
 * is cheap and needs nothing from proxies; server-sent events would hold a connection per open page.
 * An ended or cancelled event changes no more: its pages stop asking.
 */
export const LIVE_MS = 5_000;

/** Ended (results published) and cancelled are final: nothing on the event's pages moves after. */
export function isFinal(status: string | undefined): boolean {
  return status === 'ended' || status === 'cancelled';
}
export const PAGE_SIZE = 50;

export const keys = {
  event: (id: string) => ['organizer-event', id] as const,
  stats: (id: string) => ['organizer-event', id, 'stats'] as const,
  all: (id: string) => ['organizer-event', id] as const,
};

export function useOrganizerT() {
  return useT('organizer', messages);
}

const fetchEvent =
  (id: string) =>
  ({ signal }: { signal: AbortSignal }) =>
    get('/events/{id}', { path: { id }, signal });

export function useEvent(id: string) {
  return useQuery({ queryKey: keys.event(id), queryFn: fetchEvent(id), refetchInterval: (q) => (isFinal(q.state.data?.status) ? false : LIVE_MS) });
}

/**
 * How often a query of the event's pages asks again: every LIVE_MS, or never once the event is final.
 * Reads the event the page already holds (no request of its own), and re-renders when its status moves.
 */
export function useLiveInterval(id: string): number | false {
  const final = useQuery({ queryKey: keys.event(id), queryFn: fetchEvent(id), staleTime: Infinity, select: (e) => isFinal(e.status) });
  return final.data ? false : LIVE_MS;
}

export function useStats(id: string) {
  const interval = useLiveInterval(id);
  return useQuery({
    queryKey: keys.stats(id),
    queryFn: ({ signal }) => get('/events/{id}/stats', { path: { id }, signal }),
    refetchInterval: interval,
  });
}

/** The event's paginated owner lists. */
type EventListPath = '/events/{id}/leaderboard' | '/events/{id}/reviews' | '/events/{id}/registrations' | '/events/{id}/projects' | '/events/{id}/audit';

/** A paginated owner list ("Load more"), polled like everything on the page. */
export function usePagedList<P extends EventListPath>(id: string, name: string, path: P, query: Query<P> = {}) {
  const interval = useLiveInterval(id);
  // One call for any of the lists: TypeScript cannot check a generic path against its own options.
  const fetchPage = apiPage as unknown as (path: P, opts: object) => Promise<Page<Item<P>>>;
  return useInfiniteQuery({
    queryKey: [...keys.all(id), name, query],
    queryFn: ({ pageParam, signal }) =>
      fetchPage(path, { path: { id }, query: { ...query, limit: query.limit ?? PAGE_SIZE, cursor: pageParam ?? undefined }, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    // A new filter keeps the old rows on screen until its answer comes (no flash of "Loading").
    placeholderData: keepPreviousData,
    refetchInterval: interval,
  });
}

export function trackName(event: Pick<EventDetail, 'tracks'>, trackId: string | null, none: string): string {
  if (!trackId) return none;
  return event.tracks.find((tr) => tr.id === trackId)?.name ?? trackId;
}

/** A labelled progress bar: the text says the numbers, the bar shows them. */
export function ProgressBar({ value, label, tone = 'primary' }: { value: number; label: string; tone?: 'primary' | 'danger' | 'ok' }) {
  const pct = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div className="detail-progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label={label}>
      <div className={`detail-progress-fill detail-progress-${tone}`} style={{ width: `${pct}%` }} />
    </div>
  );
}

/**
 * The leaderboard's `Leaderboard-Pending` count: after a bulk change (weights edited, judging
 * started) the server recomputes in the background; the pages' polling picks up the result.
 */
export function pendingOf(page: { headers: Headers } | undefined): number {
  return Number(page?.headers.get('leaderboard-pending') ?? 0);
}

export function PendingNote({ count }: { count: number }) {
  const { t } = useOrganizerT();
  if (count <= 0) return null;
  return (
    <p className="alert alert-info" role="status">
      {t('leaderboard.pending', { count })}
    </p>
  );
}

export function LiveNote({ event }: { event: { status: string } }) {
  const { t } = useOrganizerT();
  if (isFinal(event.status)) return <p className="small muted">{t('detail.final')}</p>;
  return (
    <p className="detail-live small muted">
      <span className="detail-live-dot" aria-hidden="true" />
      {t('detail.live')}
    </p>
  );
}

/** A "Load more" button under a paged list. */
export function LoadMore({ query }: { query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown } }) {
  const { t } = useT();
  if (!query.hasNextPage) return null;
  return (
    <div className="detail-more">
      <button
        type="button"
        className="btn btn-secondary"
        disabled={query.isFetchingNextPage}
        aria-busy={query.isFetchingNextPage || undefined}
        onClick={() => void query.fetchNextPage()}
      >
        {t('actions.loadMore')}
      </button>
    </div>
  );
}

/** A table that may scroll sideways on a phone: focusable and named, so a keyboard can scroll it too. */
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}

/** A project's links (repository, website, demo video) and its description folded away: the projects tab and the review page show them alike. */
export function ProjectLinks({
  project: p,
}: {
  project: { github_url: string; project_website: string | null; demo_video_url: string | null; description: string | null; description_html?: string };
}) {
  const { t } = useOrganizerT();
  return (
    <>
      <ul className="row detail-links">
        <li>
          <a href={p.github_url} rel="noreferrer noopener" target="_blank">
            {t('projects.repo')}
          </a>
        </li>
        {p.project_website ? (
          <li>
            <a href={p.project_website} rel="noreferrer noopener" target="_blank">
              {t('projects.website')}
            </a>
          </li>
        ) : null}
        {p.demo_video_url ? (
          <li>
            <a href={p.demo_video_url} rel="noreferrer noopener" target="_blank">
              {t('projects.demo')}
            </a>
          </li>
        ) : null}
      </ul>
      <details className="detail-more-info">
        <summary>{t('projects.description')}</summary>
        {!p.description ? (
          <p className="small muted">{t('projects.noDescription')}</p>
        ) : p.description_html === undefined ? (
          <p className="detail-description pre-line">{p.description}</p>
        ) : (
          // Rendered and sanitised by the server (src/core/markdown.ts), as on every page that shows a description.
          <div className="detail-description prose" dangerouslySetInnerHTML={{ __html: p.description_html }} />
        )}
      </details>
    </>
  );
}
