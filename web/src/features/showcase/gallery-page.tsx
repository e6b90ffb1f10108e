import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem, apiPage, del, get, mediaPath, post, type Answer, type Item } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { useNow } from '../../lib/now';
import { useSession } from '../../lib/session';
import { Button, PageHeader, useTitle } from '../../ui/controls';
import { Field } from '../../ui/form';
import { EmptyState, ErrorState, Loading, ProblemAlert } from '../../ui/states';
import { EventCover, EventLogo } from '../../ui/event-images';
import { EventNotFound, useEvent, type PublicEvent } from '../shared/event-data';
import { messages } from './messages';
import './showcase.css';

const PAGE_SIZE = 24;
/** How long the search box waits after the last key before it filters (and updates the address). */
const SEARCH_DEBOUNCE_MS = 350;
type GalleryItem = Item<'/events/{id}/gallery'>;
type MyVotes = Answer<'/events/{id}/votes/me'>;

/**
 * This visitor's shuffle seed for the gallery's order while voting is open: kept for the browser
 * tab's session (sessionStorage), so paging and coming back keep one order, and another visitor
 * sees another. The API ignores it for a signed-in visitor (their account is the seed).
 */
function sessionSeed(): string {
  const key = 'gallery-seed';
  try {
    const known = window.sessionStorage.getItem(key);
    if (known && /^[A-Za-z0-9_-]{1,64}$/.test(known)) return known;
    const bytes = crypto.getRandomValues(new Uint8Array(12));
    const fresh = Array.from(bytes, (b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[b % 64]).join('');
    window.sessionStorage.setItem(key, fresh);
    return fresh;
  } catch {
    return 'no-storage';
  }
}

/** Whether the event's people's-choice vote takes votes now (the API's window; it has the last word). */
export function votingOpenNow(event: PublicEvent, now: number): boolean {
  const closesAt = event.voting.closes_at;
  return (
    event.voting.enabled &&
    event.status !== 'ended' &&
    event.status !== 'cancelled' &&
    closesAt !== null &&
    now >= Date.parse(event.voting.opens_at) &&
    now < Date.parse(closesAt)
  );
}

/** /hackathons/:id/gallery: the event's public projects as cards, by track, tag and search; votes from the cards. */
export default function GalleryPage({ params }: { params: { id: string } }) {
  const event = useEvent(params.id);
  if (event.isPending) return <Loading />;
  if (event.isError) {
    if (event.error instanceof ApiProblem && event.error.status === 404) return <EventNotFound />;
    return <ErrorState error={event.error} onRetry={() => void event.refetch()} />;
  }
  return <Gallery event={event.data} />;
}

/** The gallery's "not open" answer, said the way the organizer chose. */
export function GalleryClosed({ event, problem }: { event: PublicEvent; problem: ApiProblem }) {
  const { t } = useT('showcase', messages);
  const f = useFormat();
  useTitle(t('gallery.notOpenTitle'));
  const opensAt = typeof problem.body.opens_at === 'string' ? problem.body.opens_at : null;
  const text = opensAt
    ? t('gallery.opensAt', { date: f.dateTime(opensAt) })
    : event.gallery_visibility === 'never'
      ? t('gallery.never')
      : t('gallery.afterResults');
  return (
    <section className="card not-published" aria-labelledby="gc-title">
      <p className="muted small">{event.name}</p>
      <h1 id="gc-title">{t('gallery.notOpenTitle')}</h1>
      <p>{text}</p>
      <Link className="btn btn-primary" href={`/hackathons/${event.id}`}>
        {t('gallery.back')}
      </Link>
    </section>
  );
}

function Gallery({ event }: { event: PublicEvent }) {
  const { t } = useT('showcase', messages);
  const [location, navigate] = useLocation();
  const search = new URLSearchParams(useSearch());
  const requested = search.get('track');
  const track = event.tracks.some((tr) => tr.id === requested) ? requested : null;
  const tag = search.get('tag')?.trim() || null;
  const q = search.get('q')?.trim() || null;
  const [typed, setTyped] = useState(q ?? '');
  const [seed] = useState(sessionSeed);
  const now = useNow();
  const voteOpen = votingOpenNow(event, now);
  const query = useInfiniteQuery({
    queryKey: ['gallery', event.id, track, tag, q, seed],
    queryFn: ({ pageParam, signal }) =>
      apiPage('/events/{id}/gallery', {
        path: { id: event.id },
        query: { track_id: track ?? undefined, tag: tag ?? undefined, q: q ?? undefined, seed, limit: PAGE_SIZE, cursor: pageParam ?? undefined },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
  const go = (next: { track?: string | null; tag?: string | null; q?: string | null }) =>
    navigate(galleryHref(location, { track, tag, q, ...next }), { replace: true });
  // The search filters as one types, once the typing pauses; the address keeps it (shareable).
  useEffect(() => {
    const wanted = typed.trim() || null;
    if (wanted === q) return;
    const timer = setTimeout(() => navigate(galleryHref(location, { track, tag, q: wanted }), { replace: true }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed, q, track, tag, location, navigate]);
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    go({ q: typed.trim() || null });
  };
  if (query.isError && query.error instanceof ApiProblem && query.error.code === 'gallery_not_open')
    return <GalleryClosed event={event} problem={query.error} />;
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const order = query.data?.pages[0]?.headers.get('gallery-order');
  // Tags to filter by: the most frequent among the cards shown (and the chosen one).
  const counts = new Map<string, number>();
  for (const p of items) for (const tg of p.tags) counts.set(tg, (counts.get(tg) ?? 0) + 1);
  const topTags = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 12)
    .map(([tg]) => tg)
    .filter((tg) => tg !== tag);
  const filtered = Boolean(q || track || tag);
  return (
    <div className="stack">
      <EventCover url={event.cover_url} className="event-cover-page" />
      <PageHeader
        logo={<EventLogo url={event.logo_url} />}
        title={t('gallery.title', { name: event.name })}
        subtitle={t('gallery.subtitle')}
        actions={
          <Link className="btn btn-secondary" href={`/hackathons/${event.id}`}>
            {t('gallery.back')}
          </Link>
        }
      />
      <form className="gallery-filters" role="search" aria-label={t('gallery.filters')} onSubmit={onSearch}>
        {event.tracks.length > 0 ? (
          <Field label={t('gallery.track')}>
            <select value={track ?? ''} onChange={(e) => go({ track: e.target.value || null })}>
              <option value="">{t('gallery.allTracks')}</option>
              {event.tracks.map((tr) => (
                <option key={tr.id} value={tr.id}>
                  {tr.name}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        <Field label={t('gallery.search')} hint={t('gallery.searchHint')}>
          <input type="search" value={typed} maxLength={120} onChange={(e) => setTyped(e.target.value)} />
        </Field>
        {tag || topTags.length > 0 ? (
          <div className="gallery-tag-filter">
            <span className="field-label" id="gallery-tags-label">
              {t('gallery.tags')}
            </span>
            <ul className="tag-chips" aria-labelledby="gallery-tags-label">
              {tag ? (
                <li>
                  <button type="button" className="chip chip-active" aria-pressed="true" onClick={() => go({ tag: null })}>
                    #{tag}
                    <span aria-hidden="true"> ×</span>
                    <span className="sr-only">{t('gallery.clearTag')}</span>
                  </button>
                </li>
              ) : null}
              {topTags.map((tg) => (
                <li key={tg}>
                  <button type="button" className="chip" aria-pressed="false" onClick={() => go({ tag: tg })}>
                    #{tg}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </form>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title={filtered ? t('gallery.noMatch') : t('gallery.empty')} />
      ) : (
        <>
          <p className="muted small gallery-count" aria-live="polite">
            {t('gallery.showing', { count: items.length })}
            {order === 'shuffle' ? <span className="gallery-order">{t('gallery.shuffled')}</span> : null}
            {order === 'result' ? <span className="gallery-order">{t('gallery.winnersFirst')}</span> : null}
          </p>
          <ul className="gallery-cards">
            {items.map((p) => (
              <li key={p.project_id}>
                <ProjectCard event={event} project={p} voteOpen={voteOpen} onTag={(tg) => go({ tag: tg })} />
              </li>
            ))}
          </ul>
          {query.hasNextPage ? (
            <div className="load-more">
              <Button variant="secondary" busy={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                {t('actions.loadMore', { ns: 'common' })}
              </Button>
            </div>
          ) : null}
        </>
      )}
      {voteOpen ? <VoteBar event={event} /> : null}
    </div>
  );
}

/** The gallery's address with its filters (the page reads them back from it). */
function galleryHref(path: string, f: { track: string | null; tag: string | null; q: string | null }): string {
  const params = new URLSearchParams();
  if (f.track) params.set('track', f.track);
  if (f.tag) params.set('tag', f.tag);
  if (f.q) params.set('q', f.q);
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

/** The signed-in visitor's votes in the event (shared with the project page's vote box). */
function useMyVotes(event: PublicEvent, enabled: boolean) {
  const { user } = useSession();
  return useQuery({
    queryKey: ['my-votes', event.id],
    queryFn: ({ signal }) => get('/events/{id}/votes/me', { path: { id: event.id }, signal }),
    enabled: Boolean(user) && event.voting.enabled && enabled,
  });
}

/** Votes left: in all (one scope), or per track when the vote is per track. */
function votesLeft(event: PublicEvent, mine: MyVotes, trackId: string | null): number {
  const used = mine.votes.filter((v) => !event.voting.per_track || v.track_id === trackId).length;
  return Math.max(0, event.voting.votes_per_person - used);
}

/**
 * The vote's sticky bar while voting is open: the votes left (per track when the vote is per
 * track), or a way to sign in and come back.
 */
function VoteBar({ event }: { event: PublicEvent }) {
  const { t } = useT('showcase', messages);
  const f = useFormat();
  const { user } = useSession();
  const [location] = useLocation();
  const search = useSearch();
  const mine = useMyVotes(event, true);
  const here = `${location}${search ? `?${search}` : ''}`;
  const perTrack = event.voting.per_track && event.tracks.length > 0;
  return (
    <section className="vote-bar" aria-labelledby="vote-bar-title">
      <h2 id="vote-bar-title" className="vote-bar-title">
        {t('vote.barTitle')}
      </h2>
      {!user ? (
        <Link className="btn btn-primary" href={`/signin?next=${encodeURIComponent(here)}`}>
          {t('vote.signInBar')}
        </Link>
      ) : mine.data ? (
        <p className="vote-bar-left" role="status">
          {perTrack
            ? event.tracks.map((tr) => t('vote.leftTrack', { track: tr.name, count: votesLeft(event, mine.data, tr.id) })).join(' · ')
            : t('vote.leftShort', { count: votesLeft(event, mine.data, null) })}
        </p>
      ) : null}
      {event.voting.closes_at ? <p className="muted small vote-bar-closes">{t('vote.closesAt', { date: f.dateTime(event.voting.closes_at) })}</p> : null}
    </section>
  );
}

/** A card's vote button: vote, or "Voted" with a way to take it back; nothing on one's own project. */
function CardVote({ event, project }: { event: PublicEvent; project: GalleryItem }) {
  const { t } = useT('showcase', messages);
  const { user } = useSession();
  const client = useQueryClient();
  const mine = useMyVotes(event, true);
  const refresh = () => void client.invalidateQueries({ queryKey: ['my-votes', event.id] });
  const path = { id: event.id, project_id: project.project_id };
  const vote = useMutation({ mutationFn: () => post('/events/{id}/gallery/{project_id}/vote', { path }), onSuccess: refresh });
  const withdraw = useMutation({ mutationFn: () => del('/events/{id}/gallery/{project_id}/vote', { path }), onSuccess: refresh });
  if (!user || !mine.data) return null;
  if (mine.data.own_project_ids.includes(project.project_id)) return <p className="muted small card-vote">{t('vote.ownShort')}</p>;
  const voted = mine.data.votes.some((v) => v.project_id === project.project_id);
  const left = votesLeft(event, mine.data, project.track_id);
  return (
    <div className="card-vote">
      {voted ? (
        <>
          <span className="vote-done small">
            <span aria-hidden="true">✓ </span>
            {t('vote.cardVoted')}
          </span>
          <Button
            variant="secondary"
            className="btn-small"
            busy={withdraw.isPending}
            aria-label={t('vote.cardWithdrawFor', { name: project.project_name })}
            onClick={() => withdraw.mutate()}
          >
            {t('vote.cardWithdraw')}
          </Button>
        </>
      ) : (
        <Button
          className="btn-small"
          busy={vote.isPending}
          disabled={left === 0}
          aria-label={t('vote.cardCastFor', { name: project.project_name })}
          onClick={() => vote.mutate()}
        >
          {t('vote.cardCast')}
        </Button>
      )}
      <ProblemAlert error={vote.error ?? withdraw.error} />
    </div>
  );
}

const PLACE_KEYS = { 1: 'badge.place1', 2: 'badge.place2', 3: 'badge.place3' } as const;

function ProjectCard({ event, project, voteOpen, onTag }: { event: PublicEvent; project: GalleryItem; voteOpen: boolean; onTag: (tag: string) => void }) {
  const { t } = useT('showcase', messages);
  const image = mediaPath(project.cover?.url) ?? mediaPath(event.cover_url);
  const result = project.result;
  const place = result && result.rank <= 3 ? PLACE_KEYS[result.rank as 1 | 2 | 3] : null;
  const trackWinner = result?.track_rank === 1 && project.track_name && event.tracks.length > 1;
  return (
    <article className="card gallery-card" aria-labelledby={`p-${project.project_id}`}>
      <div className="gallery-card-media">
        {image ? (
          <img src={image} alt="" loading="lazy" decoding="async" width={project.cover?.width ?? 1200} height={project.cover?.height ?? 630} />
        ) : (
          <span className="gallery-card-initial" aria-hidden="true">
            {Array.from(project.project_name)[0]?.toUpperCase()}
          </span>
        )}
      </div>
      {place || trackWinner || result?.prize ? (
        <p className="winner-badges">
          {place ? <span className="badge badge-winner">{t(place)}</span> : null}
          {trackWinner ? <span className="badge badge-winner">{t('badge.trackWinner', { track: project.track_name })}</span> : null}
          {result?.prize ? <span className="badge badge-prize">{t('project.prize', { prize: result.prize })}</span> : null}
        </p>
      ) : null}
      <h2 id={`p-${project.project_id}`}>
        <Link href={`/hackathons/${event.id}/projects/${project.project_id}`}>{project.project_name}</Link>
      </h2>
      {project.tagline ? <p className="gallery-card-tagline">{project.tagline}</p> : null}
      <p className="muted small">
        {project.team_name}
        {event.tracks.length > 0 && project.track_name ? ` · ${project.track_name}` : ''}
      </p>
      {/* Without a tagline, the description's start, rendered from Markdown like the project page (sanitised server HTML). */}
      {project.tagline ? null : project.description_excerpt_html ? (
        <div className="gallery-card-text gallery-card-excerpt" dangerouslySetInnerHTML={{ __html: project.description_excerpt_html }} />
      ) : null}
      {project.tags.length > 0 ? (
        <ul className="tag-chips" aria-label={t('gallery.tags')}>
          {project.tags.map((tg) => (
            <li key={tg}>
              <button type="button" className="chip" title={t('gallery.filterByTag', { tag: tg })} onClick={() => onTag(tg)}>
                #{tg}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="gallery-card-foot">
        <ul className="project-links small">
          <li>
            <a href={project.github_url} rel="noopener nofollow ugc">
              {t('gallery.repository')}
            </a>
          </li>
          {project.project_website ? (
            <li>
              <a href={project.project_website} rel="noopener nofollow ugc">
                {t('gallery.website')}
              </a>
            </li>
          ) : null}
          {project.demo_video_url ? (
            <li>
              <a href={project.demo_video_url} rel="noopener nofollow ugc">
                {t('gallery.video')}
              </a>
            </li>
          ) : null}
        </ul>
        {voteOpen ? <CardVote event={event} project={project} /> : null}
      </div>
    </article>
  );
}
