import { Type } from 'typebox';
import { Nullable } from '../core/http/schemas.js';
import { ProjectSchema } from '../registrations/project-schema.js';

export const GalleryQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 24, description: 'projects per page' }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'opaque; from the Link rel="next" header' })),
    track_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "only this track's projects" })),
    tag: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'one "built with" tag' })),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 120, description: 'part of the name, tagline or a tag' })),
    seed: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{1,64}$',
        description: 'an anonymous shuffle seed (same seed, same order)',
      }),
    ),
  },
  { additionalProperties: false },
);

const ProjectLinks = {
  github_url: Type.String(),
  project_website: Nullable(Type.String()),
  demo_video_url: Nullable(Type.String()),
};

export const GalleryItem = Type.Object({
  project_id: Type.String(),
  project_name: Type.String(),
  team_name: Type.String(),
  track_id: Nullable(Type.String()),
  track_name: Nullable(Type.String()),
  tagline: Nullable(Type.String({ description: 'a one-line pitch' })),
  tags: Type.Array(Type.String(), { description: '"built with" tags, normalised' }),
  cover: Nullable(
    Type.Object(
      { url: Type.String(), width: Type.Integer(), height: Type.Integer() },
      { description: "the first screenshot; null: none (show the event's cover_url)" },
    ),
  ),
  description_text: Type.String({ description: 'the description as plain text, at most 200 characters' }),
  description_excerpt_html: Type.String({
    description: "the description's first blocks (about 320 characters of Markdown) rendered to sanitised HTML like the whole",
  }),
  ...ProjectLinks,
  submitted_at: Type.String(),
  result: Type.Union(
    [
      Type.Object({
        rank: Type.Integer(),
        track_rank: Nullable(Type.Integer()),
        prize: Nullable(Type.String({ description: "the track's prize, when the project won its track" })),
      }),
      Type.Null(),
    ],
    { description: 'its place in the published result; null before publication or when unranked' },
  ),
});

export const GalleryProject = Type.Object({
  project_id: Type.String(),
  event_id: Type.String(),
  event_name: Type.String(),
  project_name: Type.String(),
  team_name: Type.String(),
  members: Type.Array(Type.Object({ name: Type.String() }), { description: "the team's members by display name (members without one are not listed)" }),
  track_id: Nullable(Type.String()),
  track_name: Nullable(Type.String()),
  description: Type.String({ description: 'Markdown source' }),
  description_html: Type.String({ description: 'the description rendered to sanitised HTML' }),
  ...ProjectLinks,
  tagline: ProjectSchema.properties.tagline,
  tags: ProjectSchema.properties.tags,
  screenshots: ProjectSchema.properties.screenshots,
  video: ProjectSchema.properties.video,
  submitted_at: Type.String(),
  updated_at: Type.String(),
  result: Type.Union(
    [
      Type.Object({
        rank: Type.Integer(),
        track_rank: Nullable(Type.Integer()),
        score: Type.Number(),
        prize: Nullable(Type.String({ description: "the track's prize, when the project won its track" })),
      }),
      Type.Null(),
    ],
    { description: 'its place in the published result; null before publication or when unranked' },
  ),
});

export const GalleryProjectParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), project_id: Type.String({ minLength: 1, maxLength: 64 }) });
