import { describe, expect, it } from 'vitest';
import { failoverRateLimitStore, memoryRateLimitStore, type RateLimitStore } from '../../src/core/rate-limit.js';

/** A shared store that counts like memory but can be made to fail, and says how often it was asked. */
function flakyShared() {
  const inner = memoryRateLimitStore();
  const state = { failing: false, calls: 0 };
  const store: RateLimitStore = {
    async hit(b, w, n) {
      state.calls++;
      if (state.failing) throw new Error('Connection is closed.');
      return inner.hit(b, w, n);
    },
    async peek(b, w, n) {
      state.calls++;
      if (state.failing) throw new Error('Connection is closed.');
      return inner.peek(b, w, n);
    },
    async giveBack(b, w, n) {
      state.calls++;
      if (state.failing) throw new Error('Connection is closed.');
      return inner.giveBack(b, w, n);
    },
    close: () => inner.close(),
  };
  return { store, state };
}

function fakeLink() {
  const failures: unknown[] = [];
  return {
    isUp: true,
    failures,
    up() {
      return this.isUp;
    },
    commandFailed: (err: unknown) => void failures.push(err),
  };
}

describe('failover rate-limit store', () => {
  const W = 60_000;
  const NOW = 1_000_000;

  it('counts in the shared store while it is up', async () => {
    const shared = flakyShared();
    const link = fakeLink();
    const store = failoverRateLimitStore(shared.store, memoryRateLimitStore(), link);
    expect((await store.hit('k', W, NOW)).count).toBe(1);
    expect((await store.hit('k', W, NOW)).count).toBe(2);
    expect((await store.peek('k', W, NOW)).count).toBe(2);
    expect((await shared.store.peek('k', W, NOW)).count).toBe(2);
    expect(link.failures).toEqual([]);
  });

  it('counts in this process without asking the shared store while the link is down, and goes back when it is up', async () => {
    const shared = flakyShared();
    const link = fakeLink();
    const store = failoverRateLimitStore(shared.store, memoryRateLimitStore(), link);
    await store.hit('k', W, NOW);
    link.isUp = false;
    const before = shared.state.calls;
    expect((await store.hit('k', W, NOW)).count).toBe(1);
    expect((await store.hit('k', W, NOW)).count).toBe(2);
    expect((await store.peek('k', W, NOW)).count).toBe(2);
    expect(shared.state.calls).toBe(before);
    link.isUp = true;
    // Back in the shared store, which still holds what it had counted.
    expect((await store.hit('k', W, NOW)).count).toBe(2);
    expect(link.failures).toEqual([]);
  });

  it('answers from this process when a shared call fails, and reports the failure', async () => {
    const shared = flakyShared();
    const link = fakeLink();
    const store = failoverRateLimitStore(shared.store, memoryRateLimitStore(), link);
    shared.state.failing = true;
    expect(await store.hit('k', W, NOW)).toEqual({ count: 1, resetMs: W });
    expect(await store.peek('k', W, NOW)).toEqual({ count: 1, resetMs: W });
    expect(link.failures.map((e) => (e as Error).message)).toEqual(['Connection is closed.', 'Connection is closed.']);
  });
});

describe('giving a hit back', () => {
  const W = 60_000;
  const NOW = 1_000_000;

  it('memory: takes back one hit of the window it went to, never below zero, never from a later window', async () => {
    const store = memoryRateLimitStore();
    await store.hit('k', W, NOW);
    await store.hit('k', W, NOW + 10);
    await store.giveBack('k', W, NOW + 10);
    expect((await store.peek('k', W, NOW + 20)).count).toBe(1);
    await store.giveBack('k', W, NOW);
    await store.giveBack('k', W, NOW);
    expect((await store.peek('k', W, NOW + 20)).count).toBe(0);
    // A hit of an ended window: the new window keeps its count.
    await store.hit('k', W, NOW + W);
    await store.giveBack('k', W, NOW + 10);
    expect((await store.peek('k', W, NOW + W)).count).toBe(1);
  });

  it('failover: gives back where the store counts now (shared while up, this process while down)', async () => {
    const shared = flakyShared();
    const link = fakeLink();
    const local = memoryRateLimitStore();
    const store = failoverRateLimitStore(shared.store, local, link);
    await store.hit('k', W, NOW);
    await store.hit('k', W, NOW);
    await store.giveBack('k', W, NOW);
    expect((await shared.store.peek('k', W, NOW)).count).toBe(1);
    link.isUp = false;
    await store.hit('k', W, NOW);
    await store.giveBack('k', W, NOW);
    expect((await local.peek('k', W, NOW)).count).toBe(0);
    expect((await shared.store.peek('k', W, NOW)).count).toBe(1);
    link.isUp = true;
    shared.state.failing = true;
    await store.giveBack('k', W, NOW);
    expect(link.failures.map((e) => (e as Error).message)).toEqual(['Connection is closed.']);
  });
});
