import { createHash } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { Db, Executor } from '../core/db/index.js';
import { AppError, validationError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { ImageType } from '../core/image-format.js';
import type { Principal } from '../core/principal.js';
import { iso } from '../core/time.js';
import { submissionClosedDetail } from '../events/closed-reasons.js';
import { checkImage, mediaVersion, type MediaLimits } from '../events/event-media-service.js';
import type { EventsService } from '../events/events-service.js';
import type { EventRecord } from '../events/events-model.js';
import { submissionAccepted } from '../events/status.js';
import { parseScreenshots, parseTags, screenshotsForApi, SHOWCASE_LIMITS, type ScreenshotRef } from '../registrations/project-showcase.js';
import type { RegistrationsService } from '../registrations/registrations-service.js';
import type { GalleryService } from './gallery-service.js';
import * as repo from './project-screenshots-repo.js';

/** A swap that lost to a concurrent change: the transaction rolls back and runs again. */
class Raced extends Error {}
const ATTEMPTS = 5;

/**
 * A project's screenshots (at most SHOWCASE_LIMITS.screenshots): uploaded and removed by the
 * members of its team while the team may submit (approved, until the submission deadline), checked
 * like event media (type by content, size, a pixel limit). The bytes live in project_screenshots;
 * the project row names the current ones in display order, changed in the same transaction by a
 * compare-and-set, so two uploads at once cannot make six. Shown to whoever may see the project:
 * its team and the event's organizers always, anyone once the gallery shows it.
 */
export function createProjectScreenshotsService(deps: {
  db: Db;
  clock: Clock;
  events: EventsService;
  registrations: RegistrationsService;
  gallery: GalleryService;
  limits: MediaLimits;
  publicUrl: string;
}) {
  const { db, clock, events, registrations, gallery, limits, publicUrl } = deps;
  /** A screenshot may be as large as a cover. */
  const maxBytes = limits.coverMaxBytes;

  /** The caller's team's project, if the team may change it now (the rules of submit). */
  async function ownProject(who: Principal, eventId: string) {
    const event = await events.getPublic(eventId, who);
    const now = clock.now();
    if (!submissionAccepted(event, now)) throw new AppError('submission_closed', submissionClosedDetail(event, now));
    const registration = await registrations.findForUser(event.id, who.userId);
    if (!registration) throw new AppError('not_registered', `You have no registration for this event; register, get approved, and submit your project first.`);
    if (registration.status !== 'approved') {
      throw new AppError('registration_not_approved', `Your registration is ${registration.status}; only approved teams can change their project.`, {
        extra: { registration_status: registration.status },
      });
    }
    const project = await repo.teamProject(db, registration.id);
    if (!project) throw new AppError('project_not_found', `Your team has no project yet: submit it first (POST /api/v1/events/${event.id}/submit).`);
    return { event, project, now: iso(now) };
  }

  /** Runs `change` on the current list in a transaction, writing its result only if nobody changed the list meanwhile. */
  async function changeList<T>(
    projectId: string,
    who: Principal,
    now: string,
    change: (tx: Executor, shots: ScreenshotRef[]) => Promise<{ next: ScreenshotRef[]; out: T }>,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await db.transaction().execute(async (tx) => {
          const stored = (await repo.screenshotsOf(tx, projectId)) ?? '[]';
          const { next, out } = await change(tx, parseScreenshots(stored));
          const swapped = await repo.swapScreenshots(tx, { projectId, expected: stored, next: JSON.stringify(next), now, userId: who.userId });
          if (!swapped) throw new Raced();
          return out;
        });
      } catch (err) {
        if (!(err instanceof Raced) || attempt >= ATTEMPTS) throw err;
      }
    }
  }

  const listOf = (eventId: string, projectId: string, shots: ScreenshotRef[]) => screenshotsForApi(publicUrl, eventId, projectId, JSON.stringify(shots));

  async function upload(who: Principal, eventId: string, bytes: Buffer, declared: string | undefined, filename?: string) {
    const { event, project, now } = await ownProject(who, eventId);
    const info = checkImage({ label: 'screenshot', maxBytes }, bytes, declared, filename, limits);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const shot: ScreenshotRef = { id: newId('shot'), v: mediaVersion(sha256), width: info.width, height: info.height };
    const shots = await changeList(project.id, who, now, async (tx, current) => {
      if (current.length >= SHOWCASE_LIMITS.screenshots) {
        throw new AppError('screenshot_limit_reached', `This project already has ${current.length} screenshots, the most it may have; remove one first.`, {
          extra: { max_screenshots: SHOWCASE_LIMITS.screenshots },
        });
      }
      await repo.insertScreenshot(tx, {
        project_id: project.id,
        id: shot.id,
        content_type: info.type,
        bytes,
        sha256,
        width: info.width,
        height: info.height,
        created_at: now,
      });
      const next = [...current, shot];
      return { next, out: next };
    });
    const list = listOf(event.id, project.id, shots);
    return { screenshot: list.find((s) => s.id === shot.id)!, screenshots: list };
  }

  async function remove(who: Principal, eventId: string, shotId: string) {
    const { event, project, now } = await ownProject(who, eventId);
    const shots = await changeList(project.id, who, now, async (tx, current) => {
      if (!current.some((s) => s.id === shotId)) throw new AppError('media_not_found', `Your project has no screenshot ${shotId}.`);
      await repo.deleteScreenshot(tx, project.id, shotId);
      const next = current.filter((s) => s.id !== shotId);
      return { next, out: next };
    });
    return { screenshots: listOf(event.id, project.id, shots) };
  }

  async function reorder(who: Principal, eventId: string, ids: string[]) {
    const { event, project, now } = await ownProject(who, eventId);
    const shots = await changeList(project.id, who, now, async (_tx, current) => {
      const same = ids.length === current.length && new Set(ids).size === ids.length && ids.every((id) => current.some((s) => s.id === id));
      if (!same) {
        throw validationError([
          { field: 'ids', message: `must list each of the project's screenshots once: ${current.map((s) => s.id).join(', ') || '(none)'}` },
        ]);
      }
      const next = ids.map((id) => current.find((s) => s.id === id)!);
      return { next, out: next };
    });
    return { screenshots: listOf(event.id, project.id, shots) };
  }

  /** Whether the caller may see the event's project privately: one of its team, or an organizer. */
  async function insider(event: EventRecord, who: Principal | null, registrationId: string): Promise<boolean> {
    if (!who) return false;
    if ((await registrations.findForUser(event.id, who.userId))?.id === registrationId) return true;
    return events.isOwner(event, who);
  }

  /** The screenshot's bytes, to whoever may see the project (anyone else: 404 as if there were none). */
  async function get(who: Principal | null, eventId: string, projectId: string, shotId: string) {
    const event = await events.getPublic(eventId, who);
    const project = await repo.eventProject(db, event.id, projectId);
    if (!project) throw new AppError('project_not_found', `no project ${projectId} in this event`);
    let isPublic = true;
    try {
      await gallery.project(who, event.id, project.id);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      isPublic = false;
      if (!(await insider(event, who, project.registration_id))) throw new AppError('project_not_found', `no public project ${projectId} in this event`);
    }
    const row = parseScreenshots(project.screenshots).some((s) => s.id === shotId) ? await repo.findScreenshot(db, project.id, shotId) : undefined;
    if (!row) throw new AppError('media_not_found', `project ${projectId} has no screenshot ${shotId}`);
    const bytes = Buffer.isBuffer(row.bytes) ? row.bytes : Buffer.from(row.bytes);
    return { content_type: row.content_type as ImageType, sha256: row.sha256, bytes, isPublic };
  }

  /**
   * The tags the event's projects use, with how many use each (most first, then by name): the
   * editor's suggestions. For whoever may see the gallery, and for the event's teams and organizers.
   */
  async function tags(who: Principal | null, eventId: string) {
    const event = await events.getPublic(eventId, who);
    const allowed =
      (who !== null && ((await registrations.findForUser(event.id, who.userId)) !== undefined || (await events.isOwner(event, who)))) ||
      (await gallery
        .list(who, event.id, { limit: 1 })
        .then(() => true)
        .catch((err: unknown) => {
          if (err instanceof AppError) return false;
          throw err;
        }));
    if (!allowed)
      throw new AppError(
        'gallery_not_open',
        'The tags of this event’s projects are shown to its teams and organizers, and to everyone once its gallery is open.',
      );
    const counts = new Map<string, number>();
    for (const stored of await repo.eventTags(db, event.id)) for (const tag of parseTags(stored)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([tag, count]) => ({ tag, count }));
  }

  return { upload, remove, reorder, get, tags, maxBytes };
}

export type ProjectScreenshotsService = ReturnType<typeof createProjectScreenshotsService>;
