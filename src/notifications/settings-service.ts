import type { Clock } from '../core/clock.js';
import type { Db } from '../core/db/index.js';
import type { UsersTable } from '../core/db/schema.js';
import { AppError } from '../core/errors.js';
import { iso } from '../core/time.js';
import { canonicalTimeZone } from '../events/event-config.js';
import { mailLanguage, mailTimeZone } from './notification-queue.js';
import * as repo from './settings-repo.js';
import type { PatchSettings, Settings } from './settings-schemas.js';
import type { Updateable } from 'kysely';

/** A person's own settings: display name, mail language and time zone, and the mail switches. */
export function createSettingsService(deps: {
  db: Db;
  clock: Clock;
  /** Called after the display name changed: callers cache it with the principal (accounts' auth cache). */
  nameChanged?: () => void;
}) {
  const { db, clock } = deps;

  async function get(userId: string): Promise<Settings> {
    const u = await repo.findSettings(db, userId);
    return {
      name: u.name,
      email: u.email,
      language: mailLanguage(u.language),
      language_set: u.language !== null,
      time_zone: u.time_zone,
      mail_time_zone: mailTimeZone(u.time_zone),
      notifications: { registration: u.notify_registration === 1, team: u.notify_team === 1, results: u.notify_results === 1 },
    };
  }

  async function update(userId: string, body: PatchSettings): Promise<Settings> {
    const errors: Array<{ field: string; message: string }> = [];
    const set: Updateable<UsersTable> = {};
    if (body.name !== undefined) {
      const name = body.name.trim();
      if (!name) errors.push({ field: 'name', message: 'must not be empty' });
      else set.name = name;
    }
    if (body.language !== undefined) set.language = body.language;
    if (body.time_zone !== undefined) {
      if (body.time_zone === null) set.time_zone = null;
      else {
        const zone = canonicalTimeZone(body.time_zone);
        if (!zone) errors.push({ field: 'time_zone', message: 'must be an IANA time zone name, e.g. Europe/Berlin or Asia/Shanghai' });
        else set.time_zone = zone;
      }
    }
    const n = body.notifications;
    if (n?.registration !== undefined) set.notify_registration = n.registration ? 1 : 0;
    if (n?.team !== undefined) set.notify_team = n.team ? 1 : 0;
    if (n?.results !== undefined) set.notify_results = n.results ? 1 : 0;
    if (errors.length) throw new AppError('validation_failed', errors.map((e) => `${e.field} ${e.message}`).join('; '), { errors });
    if (Object.keys(set).length) {
      await repo.updateSettings(db, userId, set, iso(clock.now()));
      if (set.name !== undefined) deps.nameChanged?.();
    }
    return get(userId);
  }

  return { get, update };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
