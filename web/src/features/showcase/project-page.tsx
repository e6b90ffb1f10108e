import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem, get } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { PageHeader } from '../../ui/controls';
import { ErrorState, Loading } from '../../ui/states';
import { EventNotFound, useEvent, type PublicEvent } from '../shared/event-data';
import { ClickToLoadVideo, ScreenshotGrid, TagList, useShowcaseTitles } from '../shared/project-showcase';
import { GalleryClosed } from './gallery-page';
import { messages } from './messages';
import { VoteBox } from './vote-box';
import './showcase.css';

/** /hackathons/:id/projects/:projectId: one public project, its description rendered, and its place once the results are out. */
export default function ProjectPage({ params }: { params: { id: string; projectId: string } }) {
  const event = useEvent(params.id);
  if (event.isPending) return <Loading />;
  if (event.isError) {
    if (event.error instanceof ApiProblem && event.error.status === 404) return <EventNotFound />;
    return <ErrorState error={event.error} onRetry={() => void event.refetch()} />;
  }
  return <Project event={event.data} projectId={params.projectId} />;
}

function Project({ event, projectId }: { event: PublicEvent; projectId: string }) {
  const { t } = useT('showcase', messages);
  const query = useQuery({
    queryKey: ['gallery-project', event.id, projectId],
    queryFn: ({ signal }) => get('/events/{id}/gallery/{project_id}', { path: { id: event.id, project_id: projectId }, signal }),
  });
  if (query.isPending) return <Loading />;
  if (query.isError) {
    if (query.error instanceof ApiProblem && query.error.code === 'gallery_not_open') return <GalleryClosed event={event} problem={query.error} />;
    if (query.error instanceof ApiProblem && query.error.code === 'project_not_found') {
      return (
        <section className="state state-block" aria-labelledby="pnf-title">
          <h1 id="pnf-title">{t('project.notFound')}</h1>
          <Link className="btn btn-primary" href={`/hackathons/${event.id}/gallery`}>
            {t('project.backToGallery')}
          </Link>
        </section>
      );
    }
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  const p = query.data;
  return <ProjectBody event={event} p={p} />;
}

type GalleryProjectData = NonNullable<Awaited<ReturnType<typeof get<'/events/{id}/gallery/{project_id}'>>>>;

function ProjectBody({ event, p }: { event: PublicEvent; p: GalleryProjectData }) {
  const { t } = useT('showcase', messages);
  const f = useFormat();
  const titles = useShowcaseTitles();
  return (
    <article className="stack">
      <PageHeader
        title={p.project_name}
        subtitle={
          <>
            {t('project.by', { team: p.team_name })} · <Link href={`/hackathons/${event.id}`}>{event.name}</Link>
          </>
        }
        actions={
          <Link className="btn btn-secondary" href={`/hackathons/${event.id}/gallery`}>
            {t('project.backToGallery')}
          </Link>
        }
      />
      {p.tagline ? (
        <p className="project-tagline" data-testid="tagline">
          {p.tagline}
        </p>
      ) : null}
      <TagList tags={p.tags} />
      {p.video || p.screenshots.length > 0 ? (
        <div className="project-media stack">
          {p.video ? (
            <section aria-label={titles.video}>
              <ClickToLoadVideo video={p.video} />
            </section>
          ) : null}
          {p.screenshots.length > 0 ? (
            <section aria-labelledby="project-shots">
              <h2 id="project-shots">{titles.shots}</h2>
              <ScreenshotGrid shots={p.screenshots} name={p.project_name} />
            </section>
          ) : null}
        </div>
      ) : null}
      <div className="project-layout">
        <section className="card" aria-labelledby="about-project">
          <h2 id="about-project">{t('project.about')}</h2>
          {p.description_html ? (
            // Rendered and sanitised by the server (src/core/markdown.ts).
            <div className="description prose" dangerouslySetInnerHTML={{ __html: p.description_html }} />
          ) : (
            <p className="muted">{t('project.noDescription')}</p>
          )}
        </section>
        <div className="stack">
          <VoteBox event={event} projectId={p.project_id} trackId={p.track_id} />
          {p.result ? (
            <section className="card project-result" aria-labelledby="project-result">
              <h2 id="project-result">{t('project.result')}</h2>
              <p>
                <strong>{t('project.rank', { rank: p.result.rank })}</strong>
              </p>
              {p.result.track_rank !== null && event.tracks.length > 0 ? <p>{t('project.trackRank', { rank: p.result.track_rank })}</p> : null}
              <p>{t('project.score', { score: f.number(p.result.score, 2) })}</p>
              {p.result.prize ? <p className="prize">{t('project.prize', { prize: p.result.prize })}</p> : null}
            </section>
          ) : null}
          <section className="card stack" aria-labelledby="project-facts">
            <h2 id="project-facts">{t('project.links')}</h2>
            <ul className="project-links">
              <li>
                <a href={p.github_url} rel="noopener nofollow ugc">
                  {t('gallery.repository')}
                </a>
              </li>
              {p.project_website ? (
                <li>
                  <a href={p.project_website} rel="noopener nofollow ugc">
                    {t('gallery.website')}
                  </a>
                </li>
              ) : null}
              {p.demo_video_url ? (
                <li>
                  <a href={p.demo_video_url} rel="noopener nofollow ugc">
                    {t('gallery.video')}
                  </a>
                </li>
              ) : null}
            </ul>
            {p.track_name ? (
              <p>
                {t('project.track')}: {p.track_name}
              </p>
            ) : null}
            {p.members.length > 0 ? (
              <div>
                <h3>{t('project.members')}</h3>
                <ul>
                  {p.members.map((m, i) => (
                    <li key={i}>{m.name}</li>
                  ))}
                </ul>
              </div>
            ) : null}
            <p className="muted small">{t('project.submitted', { date: f.dateTime(p.submitted_at) })}</p>
          </section>
        </div>
      </div>
    </article>
  );
}
