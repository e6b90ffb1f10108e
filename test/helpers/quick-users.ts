import type { Role } from '../../src/core/db/schema.js';
import { registrationBody, type TestApp, type TestUser } from './harness.js';

let counter = 0;

/**
 * A user with an API key but no password. API tests only need the key, and skipping the scrypt
 * hash (tens of milliseconds each) keeps suites that create hundreds of users fast.
 */
export async function quickUser(t: TestApp, role: Role = 'user'): Promise<TestUser> {
  const email = `quick${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const u = await t.ctx.accounts.createUser({ email, role });
  const k = await t.ctx.accounts.createKey(u.id);
  return { id: u.id, email: u.email, role: u.role, key: k.key };
}

/** Like the harness's approvedTeam, with a quick user: registers a team and approves it. */
export async function quickApprovedTeam(t: TestApp, eventId: string, organizerKey: string, overrides: Record<string, unknown> = {}) {
  const team = await quickUser(t);
  const reg = await t.api('POST', `/events/${eventId}/register`, { key: team.key, body: registrationBody(overrides) });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${reg.text}`);
  if (reg.body.status !== 'approved') {
    const ok = await t.api('POST', `/events/${eventId}/registrations/${reg.body.id}/approve`, { key: organizerKey });
    if (ok.status !== 200) throw new Error(`approve: ${ok.status} ${ok.text}`);
  }
  return { team, registrationId: reg.body.id as string };
}
