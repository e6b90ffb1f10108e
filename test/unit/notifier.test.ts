import { describe, expect, it } from 'vitest';
import { memoryNotifier } from '../../src/core/notifier.js';

describe('memory notifier', () => {
  it('delivers the message of a publish to subscribers of that channel only', () => {
    const n = memoryNotifier();
    const got: string[] = [];
    const off = n.subscribe('events:changed', (m) => got.push(m));
    n.subscribe('other', (m) => got.push(`other:${m}`));
    n.publish('events:changed', 'evt_1');
    n.publish('events:changed');
    off();
    n.publish('events:changed', 'evt_2');
    expect(got).toEqual(['evt_1', '']);
    expect(n.crossProcess).toBe(false);
  });
});
