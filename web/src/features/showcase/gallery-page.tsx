import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem, apiPage, type Item } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { Button, PageHeader, useTitle } from '../../ui/controls';
import { Field } from '../../ui/form';
import { EmptyState, ErrorState, Loading } from '../../ui/states';
import { EventCover, EventLogo } from '../../ui/event-images';
import { EventNotFound, useEvent, type PublicEvent } from '../shared/event-data';
import { messages } from './messages';
import './showcase.css';

const PAGE_SIZE = 24;
type GalleryItem = Item<'/events/{id}/gallery'>;

/** /hackathons/:id/gallery: the event's public projects as cards, by track and name. */
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
  const q = search.get('q')?.trim() || null;
  const [typed, setTyped] = useState(q ?? '');
  const query = useInfiniteQuery({
    queryKey: ['gallery', event.id, track, q],
    queryFn: ({ pageParam, signal }) =>
      apiPage('/events/{id}/gallery', {
        path: { id: event.id },
        query: { track_id: track ?? undefined, q: q ?? undefined, limit: PAGE_SIZE, cursor: pageParam ?? undefined },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
  const go = (next: { track?: string | null; q?: string | null }) => {
    const params = new URLSearchParams();
    const tr = next.track !== undefined ? next.track : track;
    const qq = next.q !== undefined ? next.q : q;
    if (tr) params.set('track', tr);
    if (qq) params.set('q', qq);
    const s = params.toString();
    navigate(s ? `${location}?${s}` : location, { replace: true });
  };
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    go({ q: typed.trim() || null });
  };
  if (query.isError && query.error instanceof ApiProblem && query.error.code === 'gallery_not_open')
    return <GalleryClosed event={event} problem={query.error} />;
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
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
      <form className="gallery-filters" role="search" onSubmit={onSearch}>
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
      </form>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title={q || track ? t('gallery.noMatch') : t('gallery.empty')} />
      ) : (
        <>
          <p className="muted small" aria-live="polite">
            {t('gallery.showing', { count: items.length })}
          </p>
          <ul className="gallery-cards">
            {items.map((p) => (
              <li key={p.project_id}>
                <ProjectCard eventId={event.id} project={p} showTrack={event.tracks.length > 0} />
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
    </div>
  );
}

function ProjectCard({ eventId, project, showTrack }: { eventId: string; project: GalleryItem; showTrack: boolean }) {
  const { t } = useT('showcase', messages);
  return (
    <article className="card gallery-card" aria-labelledby={`p-${project.project_id}`}>
      <h2 id={`p-${project.project_id}`}>
        <Link href={`/hackathons/${eventId}/projects/${project.project_id}`}>{project.project_name}</Link>
      </h2>
      <p className="muted small">
        {project.team_name}
        {showTrack && project.track_name ? ` · ${project.track_name}` : ''}
      </p>
      {project.description_text ? <p className="gallery-card-text">{project.description_text}</p> : <p className="gallery-card-text" />}
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
    </article>
  );
}
