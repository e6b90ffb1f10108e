import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/core/db/index.js';
import { memoryNotifier } from '../../src/core/notifier.js';
import { createRegistrationWaits, REGISTRATION_DECIDED } from '../../src/registrations/registration-waits.js';

// No re-check timer (recheckMs 0): the database is never touched, only the notifier wakes waiters.
const setup = () => {
  const notifier = memoryNotifier();
  const waits = createRegistrationWaits({ db: {} as Db, notifier, recheckMs: 0 });
  return { notifier, waits };
};

describe('registration waits', () => {
  it('wakes every waiter of the decided registration, and only those', async () => {
    const { notifier, waits } = setup();
    const readAt = Date.now();
    const ac = new AbortController();
    const a1 = waits.wait('reg_a', readAt, 60_000);
    const a2 = waits.wait('reg_a', readAt, 60_000);
    const b = waits.wait('reg_b', readAt, 60_000, ac.signal);
    expect(waits.waiting()).toBe(3);
    notifier.publish(REGISTRATION_DECIDED, 'reg_a');
    expect(await a1).toBe(true);
    expect(await a2).toBe(true);
    expect(waits.waiting()).toBe(1);
    ac.abort();
    expect(await b).toBe(false);
    expect(waits.waiting()).toBe(0);
    waits.close();
  });

  it('a decision heard after the caller read its registration, but before it waits, answers at once', async () => {
    const { notifier, waits } = setup();
    const readAt = Date.now();
    notifier.publish(REGISTRATION_DECIDED, 'reg_a'); // lands between the read and the wait
    expect(await waits.wait('reg_a', readAt, 60_000)).toBe(true);
    expect(waits.waiting()).toBe(0);
    waits.close();
  });

  it('a decision older than the read does not wake the next wait; the wait runs out', async () => {
    const { notifier, waits } = setup();
    notifier.publish(REGISTRATION_DECIDED, 'reg_a');
    const readAt = Date.now() + 1; // read after the decision was heard
    expect(await waits.wait('reg_a', readAt, 20)).toBe(false);
    waits.close();
  });
});
