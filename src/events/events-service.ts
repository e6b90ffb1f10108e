import { configHint, configuredProviders, splitModelId, unconfiguredModels } from '../core/ai-models.js';
import type { AiConfig } from '../core/config.js';
import type { Principal } from '../core/principal.js';
import { actorOf, fieldChanges, recordAudit } from '../core/audit.js';
import type { Clock } from '../core/clock.js';
import type { Db, DatabaseHandle } from '../core/db/index.js';
import { AppError, validationError, type FieldError } from '../core/errors.js';
import { normaliseEmailAddress } from '../core/email-address.js';
import { newId } from '../core/ids.js';
import { iso } from '../core/time.js';
import type { EventCatalog } from './event-catalog.js';
import { buildEventConfig, publicationDeadlineErrors, type EventConfig, type EventConfigInput } from './event-config.js';
import { configColumns, fromRow, type EventRecord } from './events-model.js';
import * as repo from './events-repo.js';
import { effectiveStatus, normaliseStatusFilter, statusFromInput, transitionAllowed, type EventStatus, type EventStatusInput } from './status.js';

/** The event's settings an edit may change, as the audit log compares them (EventConfig's keys). */
const AUDITED_EVENT_FIELDS = [
  'name',
  'description',
  'registration_deadline',
  'submission_deadline',
  'hacking_starts_at',
  'time_zone',
  'tracks',
  'dimensions',
  'models',
  'gallery_visibility',
  'voting',
  'normalization',
  'registration_open',
  'auto_approve',
  'fields',
  'max_team_size',
  'min_team_size',
] as const satisfies ReadonlyArray<keyof EventConfig>;
/** Every setting is audited: a key added to EventConfig and not listed above fails the typecheck here. */
const everyFieldAudited: Exclude<keyof EventConfig, (typeof AUDITED_EVENT_FIELDS)[number]> extends never ? true : never = true;
void everyFieldAudited;

export interface EventInput extends EventConfigInput {
  status?: EventStatusInput;
  co_organizers?: string[];
}

export interface EventPage {
  events: EventRecord[];
  nextCursor: string | null;
}

export function createEventsService(deps: { db: Db; dialect: DatabaseHandle['dialect']; clock: Clock; catalog: EventCatalog; ai: AiConfig }) {
  const { db, clock, catalog, ai } = deps;

  /**
   * An event may name only models this server can run (their provider configured): any other would
   * fail every review once judging starts. 422 model_not_configured names both lists. Checked for
   * the models a request names (an edit that leaves `models` alone is not refused for them).
   */
  function requireConfiguredModels(models: string[] | undefined): void {
    if (!models || ai.acceptUnconfiguredModels) return;
    const missing = unconfiguredModels(ai, models);
    if (missing.length === 0) return;
    const providers = configuredProviders(ai);
    const can = providers.length
      ? `This server can run models of: ${providers.map((p) => p.model_pattern).join(', ')}.`
      : 'This server has no AI provider configured: leave `models` empty, and human reviewers score the projects.';
    throw new AppError(
      'model_not_configured',
      `This server cannot run ${missing.map((m) => `"${m}" (${configHint(splitModelId(m).provider)})`).join(', ')}. ${can} GET /api/v1/models lists them.`,
      {
        errors: missing.map((m) => ({
          field: `models.${models.indexOf(m)}`,
          message: `provider "${splitModelId(m).provider}" is not configured on this server`,
        })),
        extra: { unconfigured: missing, configured_providers: providers.map((p) => p.name) },
      },
    );
  }
  /** Told after an organizer moved an event's status (AI reviews start at once on judging). */
  const statusListeners: Array<(event: EventRecord) => Promise<void>> = [];
  const onStatusChange = (listener: (event: EventRecord) => Promise<void>) => void statusListeners.push(listener);

  async function isOwner(event: EventRecord, who: Principal | null): Promise<boolean> {
    if (!who) return false;
    if (who.role === 'admin' || event.created_by === who.userId) return true;
    return repo.isOrganizerOf(db, event.id, who.userId, who.email);
  }

  async function load(id: string): Promise<EventRecord | null> {
    const row = await repo.findEvent(db, id);
    return row ? fromRow(row) : null;
  }

  /** An event as the caller may see it: drafts exist only for their organizers. */
  async function getVisible(id: string, who: Principal | null): Promise<EventRecord> {
    const event = await load(id);
    if (!event || (event.status === 'draft' && !(await isOwner(event, who)))) {
      throw new AppError('event_not_found', `no event ${id}`);
    }
    return event;
  }

  /**
   * getVisible for the public read routes: served from the in-memory catalog when the event is
   * there (published events), from the database otherwise (drafts, just-created events).
   */
  async function getPublic(id: string, who: Principal | null): Promise<EventRecord> {
    return (await catalog.get(id)) ?? getVisible(id, who);
  }

  /** An event the caller organizes: 404 when they cannot see it, 403 when they can but do not own it. */
  async function getOwned(id: string, who: Principal): Promise<EventRecord> {
    const event = await load(id);
    if (!event) throw new AppError('event_not_found', `no event ${id}`);
    if (await isOwner(event, who)) return event;
    if (event.status === 'draft') throw new AppError('event_not_found', `no event ${id}`);
    throw new AppError('forbidden', 'only the organizers of this event may do that');
  }

  function requireOrganizerRole(who: Principal): void {
    if (who.role !== 'organizer' && who.role !== 'admin') {
      throw new AppError('forbidden', 'creating events needs the organizer or admin role', {
        extra: {
          action:
            "Ask the site's operator or an admin to give your account the organizer role (/admin on the web, or `hackathon users set-role --email <address> --role organizer`); the same key then works.",
        },
      });
    }
  }

  /**
   * Co-organizers are e-mail addresses, checked for form only: whoever signs in with one, now or
   * later, organizes the event. Never looked up, so naming one does not tell whether it has an account.
   */
  function coOrganizerEmails(emails: string[] | undefined, errors: FieldError[]): string[] | undefined {
    if (!emails) return undefined;
    const out: string[] = [];
    for (const [i, email] of emails.entries()) {
      const address = normaliseEmailAddress(email);
      if (!address) errors.push({ field: `co_organizers.${i}`, message: 'must be one plain e-mail address (local@domain)' });
      else out.push(address);
    }
    return [...new Set(out)];
  }

  function withCanonicalStatus(input: EventInput): EventInput & { status?: EventStatus } {
    return input.status === undefined ? (input as EventInput & { status?: undefined }) : { ...input, status: statusFromInput(input.status) };
  }

  async function create(who: Principal, raw: EventInput): Promise<EventRecord> {
    requireOrganizerRole(who);
    const input = withCanonicalStatus(raw);
    const { config, errors } = buildEventConfig(input);
    if (input.status && input.status !== 'draft' && input.status !== 'open') {
      errors.push({ field: 'status', message: 'a new event is either draft or open' });
    }
    // A published event starts open: its registration window must not have closed already.
    const status = input.status ?? 'open';
    if (status === 'open') errors.push(...publicationDeadlineErrors(config, 'open', clock.now()));
    const coEmails = coOrganizerEmails(input.co_organizers, errors);
    if (errors.length) throw validationError(errors);
    requireConfiguredModels(input.models);
    const now = iso(clock.now());
    const id = newId('evt');
    await db.transaction().execute(async (tx) => {
      await repo.insertEvent(tx, {
        id,
        ...configColumns(config),
        status,
        result_announced_at: null,
        created_by: who.userId,
        created_at: now,
        updated_at: now,
      });
      for (const email of coEmails ?? []) {
        await repo.insertCoOrganizer(tx, id, email, now);
      }
      await recordAudit(tx, {
        eventId: id,
        actor: actorOf(who),
        action: 'event.created',
        targetType: 'event',
        targetId: id,
        data: { name: config.name, status, co_organizers: coEmails ?? [] },
        at: now,
      });
    });
    catalog.changed(id);
    return (await load(id))!;
  }

  async function update(who: Principal, id: string, raw: EventInput): Promise<EventRecord> {
    const input = withCanonicalStatus(raw);
    const event = await getOwned(id, who);
    const now = clock.now();
    const current = effectiveStatus(event, now);
    const { config, errors } = buildEventConfig(input, event);

    let nextStatus: EventStatus | undefined;
    if (input.status !== undefined) {
      const verdict = transitionAllowed(current, input.status);
      if (!verdict.ok) throw new AppError('invalid_transition', verdict.reason, { extra: { from: current, to: input.status } });
      if (input.status !== current) nextStatus = input.status;
    }
    // Publishing a draft: the same deadline rule as creating a published event (a draft may hold
    // any dates until then). The new dates may come in the same PATCH.
    if (current === 'draft' && (nextStatus === 'open' || nextStatus === 'active')) {
      errors.push(...publicationDeadlineErrors(config, nextStatus, now));
    }
    if (current === 'ended' || current === 'cancelled') {
      const changesConfig = Object.keys(input).some((k) => k !== 'status');
      if (changesConfig) throw new AppError('event_locked', `the event is ${current}; it can no longer be changed`);
    }
    // Once judging has begun, what reviews are based on and when the event closed are fixed.
    if (current === 'judging') {
      const locked = (['dimensions', 'models', 'registration_deadline', 'submission_deadline', 'tracks'] as const).filter((k) => input[k] !== undefined);
      if (locked.length) throw new AppError('event_locked', `${locked.join(', ')} cannot change once judging has started`);
    }
    if (input.tracks) {
      const inUse = await repo.trackIdsInUse(db, id);
      const kept = new Set(config.tracks.map((t) => t.id));
      for (const t of inUse) {
        if (!kept.has(t)) errors.push({ field: 'tracks', message: `track "${t}" has registrations and cannot be removed` });
      }
    }
    const coEmails = coOrganizerEmails(input.co_organizers, errors);
    if (errors.length) throw validationError(errors);
    requireConfiguredModels(input.models);

    const stamp = iso(now);
    await db.transaction().execute(async (tx) => {
      if (config.normalization !== event.normalization) {
        // The normalisation may change until publication (one conditional write).
        if (!(await repo.setNormalizationUnlessPublished(tx, id, config.normalization)))
          throw new AppError('event_locked', 'the results are published; the normalization they used can no longer change');
      }
      await repo.updateEvent(tx, id, { ...configColumns(config), ...(nextStatus ? { status: nextStatus, status_changed_at: stamp } : {}), updated_at: stamp });
      let coBefore: string[] | undefined;
      if (coEmails) {
        // Sorted here, as the new list is below: the database's collation need not agree with code point order.
        coBefore = (await repo.replaceCoOrganizers(tx, id, coEmails, stamp)).sort();
      }
      // One entry per edit, with every field it changed (deadlines, dimensions and weights, tracks,
      // voting, status, co-organizers…): before and after as stored.
      const changes = fieldChanges({ ...event, status: current }, { ...config, status: nextStatus ?? current }, [...AUDITED_EVENT_FIELDS, 'status']);
      if (coEmails && coBefore) changes.push(...fieldChanges({ co_organizers: coBefore }, { co_organizers: [...coEmails].sort() }, ['co_organizers']));
      if (changes.length > 0) {
        await recordAudit(tx, { eventId: id, actor: actorOf(who), action: 'event.updated', targetType: 'event', targetId: id, data: { changes }, at: stamp });
      }
    });
    catalog.changed(id);
    const updated = (await load(id))!;
    if (nextStatus) for (const listener of statusListeners) await listener(updated);
    return updated;
  }

  async function coOrganizers(event: EventRecord): Promise<string[]> {
    return repo.coOrganizerEmails(db, event.id);
  }

  function parseStatuses(raw: string | undefined): EventStatus[] | null {
    if (!raw) return null;
    const out: EventStatus[] = [];
    for (const part of raw.split(',')) {
      const s = normaliseStatusFilter(part);
      if (!s) {
        throw validationError([
          { field: 'status', message: `unknown status "${part.trim()}"; one of draft, open (or recruiting), active, judging, ended, cancelled` },
        ]);
      }
      out.push(s);
    }
    return out;
  }

  async function list(q: { status?: string; limit: number; cursor?: string; mine?: boolean }, who: Principal | null): Promise<EventPage> {
    const statuses = parseStatuses(q.status);
    if (q.mine && !who) throw new AppError('unauthorized', 'mine=true needs an API key');
    if (statuses?.includes('draft') && !q.mine) {
      throw validationError([{ field: 'status', message: 'drafts are not public; add mine=true to list your own' }]);
    }
    if (!q.mine) {
      // Which events (ids) from the index, their contents from the cache.
      const now = clock.now();
      const publicStatuses = statuses as Array<Exclude<EventStatus, 'draft'>> | null;
      const key = `${publicStatuses ? [...new Set(publicStatuses)].sort().join(',') : '*'}|${q.limit}|${q.cursor ?? ''}`;
      const ids = await catalog.pageIds(key, {
        now: now.getTime(),
        // Without a status filter a page is every published event by id: the clock cannot change it.
        clockDependent: publicStatuses !== null,
        load: () =>
          repo.listPublicEventIds(db, {
            statuses: publicStatuses,
            now: iso(now),
            limit: q.limit + 1,
            ...(q.cursor ? { before: q.cursor } : {}),
          }),
        nextBoundary: () => repo.nextStatusBoundary(db, iso(now)),
      });
      const page = await catalog.getMany(ids.slice(0, q.limit));
      return { events: page, nextCursor: ids.length > q.limit ? ids[q.limit - 1]! : null };
    }
    const rows = await repo.listEvents(db, {
      statuses,
      now: iso(clock.now()),
      limit: q.limit + 1,
      ...(q.cursor ? { before: q.cursor } : {}),
      ...(q.mine && who ? { organizerId: who.userId, organizerEmail: who.email } : {}),
    });
    const page = rows.slice(0, q.limit).map(fromRow);
    return { events: page, nextCursor: rows.length > q.limit ? page[page.length - 1]!.id : null };
  }

  return {
    load,
    getVisible,
    getPublic,
    getOwned,
    changed: catalog.changed,
    cacheStats: catalog.stats,
    isOwner,
    create,
    update,
    onStatusChange,
    list,
    coOrganizers,
    requireOrganizerRole,
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
