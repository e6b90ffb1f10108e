import { createHash } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { Db } from '../core/db/index.js';
import type { EventMediaKind } from '../core/db/schema.js';
import { AppError } from '../core/errors.js';
import { declaredImageType, imageTypeOfName, sniffImage, type ImageType } from '../core/image-format.js';
import type { Principal } from '../core/principal.js';
import { actorOf, recordAudit } from '../core/audit.js';
import { iso } from '../core/time.js';
import * as repo from './event-media-repo.js';
import type { EventsService } from './events-service.js';

export const MEDIA_KINDS: readonly EventMediaKind[] = ['cover', 'logo'];

export interface MediaLimits {
  coverMaxBytes: number;
  logoMaxBytes: number;
  maxDimension: number;
  /** Largest width × height: a tiny file may state a huge image that every visitor's browser would decode. */
  maxPixels: number;
}

/** What is known of a stored image, without its bytes. */
export interface MediaInfo {
  kind: EventMediaKind;
  content_type: ImageType;
  size: number;
  width: number;
  height: number;
  sha256: string;
  updated_at: string;
}

export interface StoredMedia extends MediaInfo {
  bytes: Buffer;
}

/** The version an event row names (and its media URL carries): the start of the image's sha256. */
export const mediaVersion = (sha256: string) => sha256.slice(0, 16);

const EXTENSION: Record<ImageType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** The fixed file name an image is served under (never one a user chose). */
export const mediaFileName = (kind: EventMediaKind, type: ImageType) => `${kind}.${EXTENSION[type]}`;

/**
 * Check an upload: the bytes must be a PNG, JPEG or WebP (by their header, not a name), of at most
 * the kind's size, `maxDimension` pixels a side and `maxPixels` in all, and the declared Content-Type (and the
 * extension of a file name, when one is given) must name what the bytes are. Pure.
 */
export function checkUpload(
  kind: EventMediaKind,
  bytes: Buffer,
  declared: string | undefined,
  filename: string | undefined,
  limits: MediaLimits,
): { type: ImageType; width: number; height: number } {
  return checkImage({ label: kind, maxBytes: kind === 'cover' ? limits.coverMaxBytes : limits.logoMaxBytes }, bytes, declared, filename, limits);
}

/**
 * checkUpload for any image the site stores (a cover, a logo, a project's screenshot): `what`
 * names it in the problems and gives its size limit; the type, dimension and pixel checks are the
 * same for all.
 */
export function checkImage(
  what: { label: string; maxBytes: number },
  bytes: Buffer,
  declared: string | undefined,
  filename: string | undefined,
  limits: Pick<MediaLimits, 'maxDimension' | 'maxPixels'>,
): { type: ImageType; width: number; height: number } {
  const max = what.maxBytes;
  if (bytes.length > max) throw mediaTooLarge(what.label, max);
  const declaredType = declaredImageType(declared);
  if (!declaredType) {
    throw new AppError(
      'media_type_unsupported',
      `send the image with Content-Type image/png, image/jpeg or image/webp (got ${JSON.stringify(declared ?? '')})`,
    );
  }
  const info = sniffImage(bytes);
  if (!info) throw new AppError('media_type_unsupported', 'the body is not a PNG, JPEG or WebP image (its bytes were checked, not its name)');
  if (info.type !== declaredType) {
    throw new AppError('media_type_mismatch', `the body is ${info.type}, but Content-Type says ${declaredType}`, {
      extra: { detected: info.type, declared: declaredType },
    });
  }
  if (filename !== undefined) {
    const named = imageTypeOfName(filename);
    if (named !== info.type) {
      throw new AppError('media_type_mismatch', `the body is ${info.type}, but the file name ${JSON.stringify(filename)} says ${named ?? 'otherwise'}`, {
        extra: { detected: info.type, declared: named },
      });
    }
  }
  if (info.width > limits.maxDimension || info.height > limits.maxDimension) {
    throw new AppError('media_too_large', `the image is ${info.width}×${info.height} pixels; at most ${limits.maxDimension} a side`, {
      extra: { max_dimension: limits.maxDimension, max_bytes: max },
    });
  }
  if (info.width * info.height > limits.maxPixels) {
    throw new AppError(
      'media_too_large',
      `the image is ${info.width}×${info.height} = ${info.width * info.height} pixels; at most ${limits.maxPixels} (every visitor's browser decodes them all)`,
      { extra: { max_pixels: limits.maxPixels, max_dimension: limits.maxDimension, max_bytes: max } },
    );
  }
  return info;
}

export function mediaTooLarge(kind: string, max: number): AppError {
  return new AppError('media_too_large', `a ${kind} may be at most ${max} bytes`, { extra: { max_bytes: max } });
}

/**
 * An event's cover image and logo. The bytes live in `event_media`; the event row names the current
 * version of each, written in the same transaction, so the event's (cached) representation gives
 * `cover_url` / `logo_url` and changes with them. Images are not re-encoded (no image library is
 * bundled): they are checked by content and served with the checked type, nosniff and a fixed name.
 */
export function createEventMediaService(deps: { db: Db; clock: Clock; events: EventsService; limits: MediaLimits }) {
  const { db, clock, events, limits } = deps;

  const maxBytes = (kind: EventMediaKind) => (kind === 'cover' ? limits.coverMaxBytes : limits.logoMaxBytes);

  async function put(
    who: Principal,
    eventId: string,
    kind: EventMediaKind,
    bytes: Buffer,
    declared: string | undefined,
    filename?: string,
  ): Promise<MediaInfo> {
    const event = await events.getOwned(eventId, who);
    const info = checkUpload(kind, bytes, declared, filename, limits);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const now = iso(clock.now());
    const row = { event_id: event.id, kind, content_type: info.type, bytes, sha256, width: info.width, height: info.height, updated_at: now };
    await db.transaction().execute(async (tx) => {
      await repo.upsertMedia(tx, row);
      await repo.setMediaVersion(tx, event.id, kind, mediaVersion(sha256), now);
      await recordAudit(tx, {
        eventId: event.id,
        actor: actorOf(who),
        action: 'event.media_uploaded',
        targetType: 'event_media',
        targetId: kind,
        data: { kind, content_type: info.type, size: bytes.length, width: info.width, height: info.height, sha256 },
        at: now,
      });
    });
    events.changed(event.id);
    return { kind, content_type: info.type, size: bytes.length, width: info.width, height: info.height, sha256, updated_at: now };
  }

  async function remove(who: Principal, eventId: string, kind: EventMediaKind): Promise<void> {
    const event = await events.getOwned(eventId, who);
    const now = iso(clock.now());
    const removed = await db.transaction().execute(async (tx) => {
      if (!(await repo.deleteMedia(tx, event.id, kind))) return false;
      await repo.setMediaVersion(tx, event.id, kind, null, now);
      await recordAudit(tx, {
        eventId: event.id,
        actor: actorOf(who),
        action: 'event.media_removed',
        targetType: 'event_media',
        targetId: kind,
        data: { kind },
        at: now,
      });
      return true;
    });
    if (removed) events.changed(event.id);
  }

  /** The image, to whoever may see the event (drafts: their organizers only; 404 otherwise). */
  async function get(who: Principal | null, eventId: string, kind: EventMediaKind): Promise<StoredMedia & { draft: boolean }> {
    const event = await events.getPublic(eventId, who);
    const row = await repo.findMedia(db, event.id, kind);
    if (!row) throw new AppError('media_not_found', `event ${event.id} has no ${kind}`);
    const bytes = Buffer.isBuffer(row.bytes) ? row.bytes : Buffer.from(row.bytes);
    return {
      kind,
      content_type: row.content_type as ImageType,
      size: bytes.length,
      width: Number(row.width),
      height: Number(row.height),
      sha256: row.sha256,
      updated_at: row.updated_at,
      bytes,
      draft: event.status === 'draft',
    };
  }

  return { put, remove, get, maxBytes, limits };
}

export type EventMediaService = ReturnType<typeof createEventMediaService>;
