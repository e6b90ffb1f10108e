import { actorOf, recordAudit, type AuditActor } from '../core/audit.js';
import type { Clock } from '../core/clock.js';
import type { DatabaseHandle, Db, Executor } from '../core/db/index.js';
import type { AnnouncementRow } from '../core/db/schema.js';
import { AppError, validationError, type FieldError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { createJobWorker } from '../core/job-queue.js';
import type { LoopLog } from '../core/outage-log.js';
import type { Notifier } from '../core/notifier.js';
import type { Principal } from '../core/principal.js';
import { iso, parseTimestamp } from '../core/time.js';
import type { EventRecord } from '../events/events-model.js';
import type { EventsService } from '../events/events-service.js';
import { MAIL_QUEUED, queueNotification } from '../notifications/notification-queue.js';
import { enqueueWebhookEvent } from '../webhooks/webhook-events.js';
import type { WebhookSubscribers } from '../webhooks/webhook-subscribers.js';
import * as repo from './announcements-repo.js';
import { ANNOUNCEMENT_LIMITS, segmentHasDeadline, type AnnouncementSegment } from './segments.js';

/** The scheduler's actor in the audit log when a scheduled announcement goes out. */
const SCHEDULE_ACTOR: AuditActor = { userId: null, label: 'schedule' };

export interface AnnouncementInput {
  title: string;
  body: string;
  segment: AnnouncementSegment;
  publish_at?: string | null | undefined;
}

export interface AnnouncementsDeps {
  db: Db;
  dialect: DatabaseHandle['dialect'];
  clock: Clock;
  events: EventsService;
  notifier: Notifier;
  subscribers: WebhookSubscribers;
  log: () => LoopLog;
  /**
   * The scheduler runs with the mail queue (announcements are mail) and follows its settings: a poll
   * every MAIL_POLL_MS (one indexed read), a due announcement leased for MAIL_LEASE_MS (a dead
   * worker's is taken over after that).
   */
  queue: { pollMs: number; leaseMs: number };
}

/** What a state of the row means to a reader. */
export function announcementState(row: Pick<AnnouncementRow, 'status'>): 'scheduled' | 'sending' | 'published' | 'cancelled' {
  if (row.status === 'queued') return 'scheduled';
  if (row.status === 'running') return 'sending';
  return row.status;
}

/**
 * Announcements: an organizer's message to a segment of an event's people, sent now or at a set
 * time. Exactly once per person: the recipients are resolved, recorded (unique per announcement
 * and person) and their mails queued in the transaction that stamps published_at, so a crash
 * before the commit sends nothing and the job is taken again; after it, nothing is left to send
 * but the durable mail queue. Scheduled ones are jobs of the core leased queue over the
 * announcements table itself (core/job-queue.ts). Always sent: no mail switch governs them (an
 * organizer's operational news, such as a moved deadline); disabled accounts get no mail.
 */
export function createAnnouncementsService(deps: AnnouncementsDeps) {
  const { db, clock, events, notifier, subscribers } = deps;

  function validate(input: AnnouncementInput, now: Date): { title: string; body: string; publishAt: Date | null } {
    const errors: FieldError[] = [];
    const title = input.title.replace(/\s+/g, ' ').trim();
    const body = input.body.trim();
    if (!title) errors.push({ field: 'title', message: 'must not be empty' });
    if (title.length > ANNOUNCEMENT_LIMITS.title) errors.push({ field: 'title', message: `at most ${ANNOUNCEMENT_LIMITS.title} characters` });
    if (!body) errors.push({ field: 'body', message: 'must not be empty' });
    if (body.length > ANNOUNCEMENT_LIMITS.body) errors.push({ field: 'body', message: `at most ${ANNOUNCEMENT_LIMITS.body} characters` });
    let publishAt: Date | null = null;
    if (input.publish_at !== undefined && input.publish_at !== null) {
      publishAt = parseTimestamp(input.publish_at);
      if (!publishAt) errors.push({ field: 'publish_at', message: 'must be an ISO-8601 date-time with a zone, e.g. 2030-01-02T09:00:00Z' });
      // A time already past means "now" (a form filled a minute too slowly still sends).
      else if (publishAt.getTime() <= now.getTime()) publishAt = null;
    }
    if (errors.length) throw validationError(errors);
    return { title, body, publishAt };
  }

  async function requireSegmentOpen(tx: Executor, eventId: string, segment: AnnouncementSegment) {
    if (segment === 'winners' && !(await repo.resultPublished(tx, eventId))) {
      throw new AppError(
        'results_not_published',
        'The winners are known once the results are published (POST /api/v1/events/{id}/result); announce to them after that.',
      );
    }
  }

  /**
   * Resolves the segment, records the recipients and queues one mail each, audits and queues the
   * webhook: the caller's transaction, which also stamps the row published. Returns the count.
   */
  async function deliver(tx: Executor, row: Pick<AnnouncementRow, 'id' | 'event_id' | 'title' | 'body' | 'segment'>, now: Date, actor: AuditActor) {
    const people = await repo.segmentRecipients(tx, row.event_id, row.segment);
    const added = await repo.insertRecipients(tx, row.id, row.event_id, people);
    await queueNotification(tx, {
      kind: 'announcement',
      eventId: row.event_id,
      recipients: people.map((userId) => ({ userId })),
      data: { title: row.title, body: row.body, deadline: segmentHasDeadline(row.segment) },
      now,
    });
    const at = iso(now);
    await recordAudit(tx, {
      eventId: row.event_id,
      actor,
      action: 'announcement.published',
      targetType: 'announcement',
      targetId: row.id,
      data: { title: row.title, segment: row.segment, recipients: added },
      at,
    });
    if (subscribers.mayReceive('announcement.published', row.event_id)) {
      await enqueueWebhookEvent(tx, {
        type: 'announcement.published',
        eventId: row.event_id,
        data: {
          event_id: row.event_id,
          announcement: { id: row.id, title: row.title, body: row.body, segment: row.segment, published_at: at, recipients: added },
        },
        at,
      });
    }
    return added;
  }

  async function post(who: Principal, eventId: string, input: AnnouncementInput): Promise<AnnouncementRow> {
    const event = await events.getOwned(eventId, who);
    const now = clock.now();
    const v = validate(input, now);
    const stamp = iso(now);
    const id = newId('ann', now.getTime());
    const row = await db.transaction().execute(async (tx) => {
      await requireSegmentOpen(tx, event.id, input.segment);
      await repo.insertAnnouncement(tx, {
        id,
        event_id: event.id,
        title: v.title,
        body: v.body,
        segment: input.segment,
        status: v.publishAt ? 'queued' : 'published',
        publish_at: v.publishAt ? iso(v.publishAt) : null,
        published_at: v.publishAt ? null : stamp,
        recipients: null,
        created_by: who.userId,
        created_at: stamp,
        updated_at: stamp,
        cancelled_at: null,
        cancelled_by: null,
        next_attempt_at: v.publishAt ? iso(v.publishAt) : null,
        lease_owner: null,
        lease_expires_at: null,
      });
      if (v.publishAt) {
        await recordAudit(tx, {
          eventId: event.id,
          actor: actorOf(who),
          action: 'announcement.scheduled',
          targetType: 'announcement',
          targetId: id,
          data: { title: v.title, segment: input.segment, publish_at: iso(v.publishAt) },
          at: stamp,
        });
      } else {
        const count = await deliver(tx, { id, event_id: event.id, title: v.title, body: v.body, segment: input.segment }, now, actorOf(who));
        await repo.setRecipientCount(tx, id, count);
      }
      return (await repo.findAnnouncement(tx, event.id, id))!;
    });
    if (row.status === 'published') notifier.publish(MAIL_QUEUED);
    return row;
  }

  /** The organizers see every announcement; anyone else the published ones that went to them. */
  async function list(who: Principal, eventId: string): Promise<{ event: EventRecord; organizer: boolean; rows: AnnouncementRow[] }> {
    const event = await events.getVisible(eventId, who);
    if (await events.isOwner(event, who)) return { event, organizer: true, rows: await repo.eventAnnouncements(db, event.id) };
    return { event, organizer: false, rows: await repo.announcementsFor(db, event.id, who.userId) };
  }

  /** Cancels a scheduled announcement: 204 (again: still 204); one that went out cannot be unsent (409). */
  async function cancel(who: Principal, eventId: string, id: string): Promise<void> {
    const event = await events.getOwned(eventId, who);
    const now = iso(clock.now());
    await db.transaction().execute(async (tx) => {
      if (await repo.cancelScheduled(tx, { eventId: event.id, id, by: who.userId, now })) {
        const row = (await repo.findAnnouncement(tx, event.id, id))!;
        await recordAudit(tx, {
          eventId: event.id,
          actor: actorOf(who),
          action: 'announcement.cancelled',
          targetType: 'announcement',
          targetId: id,
          data: { title: row.title, segment: row.segment, publish_at: row.publish_at },
          at: now,
        });
        return;
      }
      const row = await repo.findAnnouncement(tx, event.id, id);
      if (!row) throw new AppError('announcement_not_found', `no announcement ${id} in this event`);
      if (row.status === 'cancelled') return;
      throw new AppError(
        'announcement_already_published',
        'This announcement has gone out (or is going out now); a sent announcement cannot be unsent. Post a correction instead.',
      );
    });
  }

  /** Publishes one due scheduled announcement under its lease; nothing when the lease was lost. */
  async function publishDue(job: AnnouncementRow, owner: string): Promise<boolean> {
    const now = clock.now();
    const done = await db
      .transaction()
      .execute(async (tx) => {
        const count = await deliver(tx, job, now, SCHEDULE_ACTOR);
        // Conditioned on the lease: a worker whose lease was taken over rolls its whole delivery back.
        if (!(await repo.markPublished(tx, { id: job.id, owner, now: iso(now), recipients: count }))) throw new LeaseLost();
        return true;
      })
      .catch((err: unknown) => {
        if (err instanceof LeaseLost) return false;
        throw err;
      });
    if (done) notifier.publish(MAIL_QUEUED);
    return done;
  }

  const worker = createJobWorker<AnnouncementRow>({
    component: 'announcements',
    log: deps.log,
    pollMs: deps.queue.pollMs,
    concurrency: 2,
    claim: ({ owner, limit, takeOver }) => {
      const now = clock.now();
      return repo.claimDue(db, deps.dialect, { owner, now: iso(now), leaseUntil: iso(now.getTime() + deps.queue.leaseMs), limit, takeOver });
    },
    run: async (job, ctx) => {
      await publishDue(job, ctx.owner);
    },
  });

  return {
    post,
    list,
    cancel,
    hasRegistrations: (eventId: string) => repo.hasRegistrations(db, eventId),
    /** The scheduler: start/close with the app; `poll()` publishes what is due now (tests drive it on their clock). */
    start: worker.start,
    poll: worker.poll,
    whenIdle: worker.whenIdle,
    close: worker.close,
  };
}

class LeaseLost extends Error {}

export type AnnouncementsService = ReturnType<typeof createAnnouncementsService>;
