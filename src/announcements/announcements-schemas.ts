import { Type } from 'typebox';
import type { AnnouncementRow } from '../core/db/schema.js';
import { renderMarkdownCached } from '../core/markdown.js';
import { announcementState } from './announcements-service.js';
import { ANNOUNCEMENT_LIMITS } from './segments.js';

export const AnnouncementParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  announcementId: Type.String({ minLength: 1, maxLength: 64 }),
});

const Segment = Type.Union(
  [Type.Literal('registered'), Type.Literal('approved'), Type.Literal('no_final_submission'), Type.Literal('reviewers'), Type.Literal('winners')],
  {
    description: 'registered: all teams but withdrawn; no_final_submission: approved teams without a project; winners: top 3 and track winners',
  },
);

export const PostAnnouncementBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: ANNOUNCEMENT_LIMITS.title }),
    body: Type.String({ minLength: 1, maxLength: ANNOUNCEMENT_LIMITS.body, description: 'Markdown' }),
    segment: Segment,
    publish_at: Type.Optional(Type.Union([Type.String({ maxLength: 40, description: 'ISO time to send at; else now' }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const AnnouncementSchema = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  title: Type.String(),
  body: Type.String({ description: 'Markdown' }),
  body_html: Type.String({ description: 'the body rendered to sanitised HTML' }),
  segment: Segment,
  state: Type.Union([Type.Literal('scheduled'), Type.Literal('sending'), Type.Literal('published'), Type.Literal('cancelled')]),
  publish_at: Type.Union([Type.String(), Type.Null()], { description: 'when a scheduled one goes out (null: sent at once)' }),
  published_at: Type.Union([Type.String(), Type.Null()]),
  recipients: Type.Union([Type.Integer(), Type.Null()], { description: 'how many people it went to (organizers only; null until sent)' }),
  created_at: Type.String(),
});

export const AnnouncementListSchema = Type.Object({
  announcements: Type.Array(AnnouncementSchema, { description: 'newest first' }),
});

/** An announcement as the API shows it; `organizer` decides whether the recipients count is shown. */
export function announcementForApi(row: AnnouncementRow, organizer: boolean) {
  return {
    id: row.id,
    event_id: row.event_id,
    title: row.title,
    body: row.body,
    body_html: renderMarkdownCached(row.body),
    segment: row.segment,
    state: announcementState(row),
    publish_at: row.publish_at,
    published_at: row.published_at,
    recipients: organizer ? row.recipients : null,
    created_at: row.created_at,
  };
}
