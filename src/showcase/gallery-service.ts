import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { Db } from '../core/db/index.js';
import { AppError } from '../core/errors.js';
import { decodeCursor, encodeCursor, takePage } from '../core/http/pagination.js';
import { markdownExcerptHtml, markdownText, renderMarkdownCached } from '../core/markdown.js';
import type { Principal } from '../core/principal.js';
import type { EventsService } from '../events/events-service.js';
import type { EventRecord } from '../events/events-model.js';
import { effectiveStatus } from '../events/status.js';
import { normaliseTag, parseScreenshots, parseTags, screenshotUrl } from '../submissions/project-showcase.js';
import { pageOfKeyed, resultKey, seedTag, shuffleKey, votingOpen, type GalleryOrder } from './gallery-order.js';
import { showcaseForApi } from '../registrations/project-schema.js';
import * as repo from './gallery-repo.js';

export interface GalleryQuery {
  limit: number;
  cursor?: string | undefined;
  trackId?: string | undefined;
  /** One tag, normalised here like the stored ones. */
  tag?: string | undefined;
  /** A part of the name, the tagline or a tag, any case. */
  q?: string | undefined;
  /** An anonymous visitor's shuffle seed (a signed-in visitor's is their account). */
  seed?: string | undefined;
}

/** Whether the results are out: publication ends the event and stamps the announcement. */
function published(event: EventRecord): boolean {
  return event.status === 'ended' && event.result_announced_at !== null;
}

/**
 * The public gallery of an event's projects. It opens when the organizer chose (after the
 * submission deadline by default, after the results, or never); the event's owners see it at any
 * time (a preview of what will be public). Only projects that take part in judging are shown
 * (approved teams: withdrawn, rejected and disqualified ones are not); drafts stay 404.
 */
export function createGalleryService(deps: { db: Db; clock: Clock; events: EventsService; publicUrl: string }) {
  const { db, clock, events, publicUrl } = deps;

  async function openEvent(who: Principal | null, eventId: string): Promise<EventRecord> {
    const event = await events.getPublic(eventId, who);
    if (await events.isOwner(event, who)) return event;
    const status = effectiveStatus(event, clock.now());
    const open =
      event.gallery_visibility === 'after_deadline'
        ? status === 'judging' || status === 'ended'
        : event.gallery_visibility === 'after_results' && published(event);
    if (open) return event;
    const opensAt = event.gallery_visibility === 'after_deadline' && status !== 'cancelled' ? event.submission_deadline : null;
    const detail =
      event.gallery_visibility === 'never'
        ? "The organizer keeps this event's projects private."
        : event.gallery_visibility === 'after_results'
          ? 'The projects become public when the results are published.'
          : status === 'cancelled'
            ? 'The event was cancelled before its projects became public.'
            : `The projects become public after the submission deadline (${event.submission_deadline}).`;
    throw new AppError('gallery_not_open', detail, { extra: { opens_at: opensAt, gallery_visibility: event.gallery_visibility } });
  }

  function trackName(event: EventRecord, trackId: string | null): string | null {
    return trackId === null ? null : (event.tracks.find((t) => t.id === trackId)?.name ?? null);
  }

  /**
   * One page of cards, narrowed by track, tag and a search over name, tagline and tags, in the
   * order of the moment: during an open people's-choice vote a stable shuffle per visitor (seeded by
   * the signed-in account, else by `seed`, else by a fresh random seed that the next page's link
   * carries); after publication winners first by their place, then the rest in submission order;
   * otherwise submission order (project ids are time-sortable). The shuffle and the result order
   * are sorted here over the event's matching ids (one read of ids; a few thousand at most), so a
   * cursor is the last card's (key, id) and pages never repeat or skip a project.
   */
  async function list(who: Principal | null, eventId: string, q: GalleryQuery) {
    const event = await openEvent(who, eventId);
    if (q.trackId !== undefined && !event.tracks.some((t) => t.id === q.trackId)) {
      throw new AppError('validation_failed', `no track "${q.trackId}" in this event`, {
        errors: [{ field: 'track_id', message: `must be one of: ${event.tracks.map((t) => t.id).join(', ') || '(the event has no tracks)'}` }],
      });
    }
    const tag = q.tag === undefined ? undefined : normaliseTag(q.tag);
    if (tag === null) throw new AppError('validation_failed', 'the tag is empty', { errors: [{ field: 'tag', message: 'must have a letter or digit' }] });
    const filter = { trackId: q.trackId, tag, needle: q.q?.trim().toLowerCase() };
    const isPublished = published(event);
    const order: GalleryOrder = isPublished ? 'result' : votingOpen(event, clock.now()) ? 'shuffle' : 'submission';

    if (order === 'submission') {
      const after = q.cursor ? decodeCursor(q.cursor, 'gallery', event.id, ['id'])[0] : undefined;
      const rows = await repo.galleryPage(db, event.id, { ...filter, after, limit: q.limit + 1 });
      const page = takePage(rows, q.limit, (r) => [r.id]);
      return {
        order,
        seed: undefined,
        items: page.items.map((r) => card(event, r, null)),
        nextCursor: page.nextKey ? encodeCursor('gallery', event.id, page.nextKey) : null,
      };
    }

    const seed = order === 'shuffle' ? (who ? `usr:${who.userId}` : (q.seed ?? randomBytes(12).toString('base64url'))) : '';
    const kind = order === 'shuffle' ? `gallery-shuffle-${seedTag(seed)}` : 'gallery-result';
    const cursorKey = q.cursor ? decodeCursor(q.cursor, kind, event.id, ['text', 'id']) : null;
    const keys = await repo.galleryKeys(db, event.id, filter, order === 'result');
    const entries = new Map(keys.map((k) => [k.id, k.entry]));
    const keyed = keys.map((k) => ({ id: k.id, key: order === 'shuffle' ? shuffleKey(seed, k.id) : resultKey(k.id, k.entry) }));
    const page = takePage(pageOfKeyed(keyed, cursorKey ? [cursorKey[0]!, cursorKey[1]!] : null, q.limit + 1), q.limit, (r) => [r.key, r.id]);
    const rows = new Map(
      (
        await repo.galleryCards(
          db,
          event.id,
          page.items.map((r) => r.id),
        )
      ).map((r) => [r.id, r]),
    );
    return {
      order,
      // An anonymous visitor's seed (given or drawn) goes on in the next page's link.
      seed: order === 'shuffle' && !who ? seed : undefined,
      items: page.items.flatMap((k) => {
        const row = rows.get(k.id);
        return row ? [card(event, row, entries.get(k.id) ?? null)] : [];
      }),
      nextCursor: page.nextKey ? encodeCursor(kind, event.id, page.nextKey) : null,
    };
  }

  type CardRow = Awaited<ReturnType<typeof repo.galleryCards>>[number];

  /** A gallery card: the project's pitch, its cover (the first screenshot) and, after the results, its place. */
  function card(event: EventRecord, r: CardRow, entry: { rank: number; track_rank: number | null } | null) {
    const shot = parseScreenshots(r.screenshots)[0];
    return {
      project_id: r.id,
      project_name: r.project_name,
      team_name: r.team_name,
      track_id: r.track_id,
      track_name: trackName(event, r.track_id),
      tagline: r.tagline ?? null,
      tags: parseTags(r.tags),
      cover: shot ? { url: screenshotUrl(publicUrl, event.id, r.id, shot), width: shot.width, height: shot.height } : null,
      description_text: markdownText(r.description ?? '', 200),
      description_excerpt_html: markdownExcerptHtml(r.description ?? ''),
      github_url: r.github_url,
      project_website: r.project_website,
      demo_video_url: r.demo_video_url,
      submitted_at: r.first_submitted_at,
      result: entry ? { rank: entry.rank, track_rank: entry.track_rank, prize: trackPrize(event, entry.track_rank, r.track_id) } : null,
    };
  }

  /** The track's prize when the project won its track (the frozen result's track rank 1). */
  function trackPrize(event: EventRecord, trackRank: number | null, trackId: string | null): string | null {
    return trackRank === 1 && trackId !== null ? event.tracks.find((t) => t.id === trackId)?.prize || null : null;
  }

  /** A project's public page: the description rendered, the team's members by display name, and after the results its place. */
  async function project(who: Principal | null, eventId: string, projectId: string) {
    const event = await openEvent(who, eventId);
    const row = await repo.galleryProject(db, event.id, projectId);
    if (!row) throw new AppError('project_not_found', `no public project ${projectId} in this event`);
    const members = await memberNames(row.registration_id);
    const result = published(event) ? await placeOf(event, row.id, row.track_id) : null;
    return {
      project_id: row.id,
      event_id: event.id,
      event_name: event.name,
      project_name: row.project_name,
      team_name: row.team_name,
      members,
      track_id: row.track_id,
      track_name: trackName(event, row.track_id),
      description: row.description ?? '',
      description_html: renderMarkdownCached(row.description ?? ''),
      github_url: row.github_url,
      project_website: row.project_website,
      demo_video_url: row.demo_video_url,
      ...showcaseForApi(publicUrl, { ...row, event_id: event.id }),
      submitted_at: row.first_submitted_at,
      updated_at: row.updated_at,
      result,
    };
  }

  /** The display names of a team's members (names only: addresses stay with the team). */
  async function memberNames(registrationId: string): Promise<Array<{ name: string }>> {
    const rows = await repo.memberNames(db, registrationId);
    return rows.filter((r) => r.name && r.name.trim()).map((r) => ({ name: r.name!.trim() }));
  }

  /**
   * The project's entry in the frozen result (found by its project id, indexed): rank, score, its
   * track's rank, and the track's prize when it won its track.
   */
  async function placeOf(event: EventRecord, projectId: string, trackId: string | null) {
    const entry = await repo.resultEntryOf(db, event.id, projectId);
    if (!entry) return null;
    const parsed = JSON.parse(`{"rank":${entry.rank}${entry.entry_tail}`) as { score: number };
    const prize = entry.track_rank === 1 && trackId !== null ? event.tracks.find((t) => t.id === trackId)?.prize || null : null;
    return { rank: entry.rank, track_rank: entry.track_rank, score: parsed.score, prize };
  }

  return { list, project };
}

export type GalleryService = ReturnType<typeof createGalleryService>;
