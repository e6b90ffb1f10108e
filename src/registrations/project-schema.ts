import { Type, type Static } from 'typebox';
import type { ProjectReviewStatus, ProjectRow } from '../core/db/schema.js';
import { Nullable } from '../core/http/schemas.js';
import { renderMarkdownCached } from '../core/markdown.js';
import { parseTags, screenshotsForApi, videoEmbed } from './project-showcase.js';

/*
 * A team's project as the API shows it. It lives with registrations because a registration shows
 * its project and submissions (which creates and updates projects) sits above registrations: see
 * docs/architecture.md.
 */

/** A project's `review_status` on the wire: the stored column's closed list (ProjectReviewStatus), in every answer that shows it. */
export const ProjectReviewStatusSchema = Type.Union([Type.Literal('pending'), Type.Literal('in_review'), Type.Literal('reviewed')]);
// The wire list and the column's type are the same set: a value added to one and not the other fails the typecheck.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _sameReviewStatuses: Same<Static<typeof ProjectReviewStatusSchema>, ProjectReviewStatus> = true;

export const ScreenshotSchema = Type.Object({
  id: Type.String(),
  url: Type.String({ description: 'the image (versioned: cacheable for good)' }),
  width: Type.Integer(),
  height: Type.Integer(),
});

export const VideoSchema = Type.Object(
  {
    provider: Type.Union([Type.Literal('youtube'), Type.Literal('vimeo'), Type.Literal('loom'), Type.Literal('bilibili')]),
    url: Type.String({ description: 'demo_video_url as given' }),
    embed_url: Type.String({ description: 'the player to load in an iframe when the visitor asks for it (YouTube via youtube-nocookie.com)' }),
  },
  { description: 'demo_video_url as an embeddable player; null for other hosts (show the link)' },
);

export const ProjectSchema = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  registration_id: Type.String(),
  team_name: Type.Optional(Type.String()),
  project_name: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  description_html: Type.String({ description: 'the description rendered from Markdown and sanitised (what the pages show)' }),
  tagline: Nullable(Type.String({ description: 'a one-line pitch (at most 140 characters)' })),
  tags: Type.Array(Type.String(), { description: '"built with" tags, normalised (lower case, "-" for spaces)' }),
  screenshots: Type.Array(ScreenshotSchema, { description: 'at most 5, in display order' }),
  video: Nullable(VideoSchema),
  github_url: Type.String(),
  project_website: Nullable(Type.String()),
  demo_video_url: Nullable(Type.String()),
  demo_url: Nullable(Type.String()),
  team_size: Nullable(Type.Integer()),
  track_id: Nullable(Type.String()),
  status: Type.String(),
  review_status: ProjectReviewStatusSchema,
  submitted_at: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String({ description: 'when the project was last created or changed' }),
  updated_by: Nullable(
    Type.Object(
      { user_id: Type.String(), name: Type.String() },
      { description: 'the team member who last created or changed the project (last write wins); null for projects written before teams existed' },
    ),
  ),
});

/** A project row with the display name of its last author (read by a join on users). */
export type ProjectWithAuthor = ProjectRow & { updated_by_name?: string | null };

/** The showcase fields of a project row as every representation shows them. */
export function showcaseForApi(publicUrl: string, p: Pick<ProjectRow, 'id' | 'event_id' | 'tagline' | 'tags' | 'screenshots' | 'demo_video_url'>) {
  return {
    tagline: p.tagline ?? null,
    tags: parseTags(p.tags),
    screenshots: screenshotsForApi(publicUrl, p.event_id, p.id, p.screenshots),
    video: videoEmbed(p.demo_video_url),
  };
}

export function projectForApi(p: ProjectWithAuthor, publicUrl: string, teamName?: string) {
  return {
    id: p.id,
    event_id: p.event_id,
    registration_id: p.registration_id,
    ...(teamName !== undefined ? { team_name: teamName } : {}),
    project_name: p.project_name,
    name: p.project_name,
    description: p.description,
    description_html: renderMarkdownCached(p.description ?? ''),
    ...showcaseForApi(publicUrl, p),
    github_url: p.github_url,
    project_website: p.project_website,
    demo_video_url: p.demo_video_url,
    demo_url: p.demo_video_url,
    team_size: p.team_size,
    track_id: p.track_id,
    status: p.status,
    review_status: p.review_status,
    submitted_at: p.first_submitted_at,
    created_at: p.created_at,
    updated_at: p.updated_at,
    updated_by: p.updated_by_user_id ? { user_id: p.updated_by_user_id, name: p.updated_by_name ?? '' } : null,
  };
}
