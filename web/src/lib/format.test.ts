import { describe, expect, it } from 'vitest';
import { formatters } from './format';

describe('formatters', () => {
  it('formats a date and time with its zone named, in both languages', () => {
    expect(formatters('en').dateTime('2030-01-01T12:00:00.000Z', 'UTC')).toBe('Jan 1, 2030, 12:00 PM UTC');
    expect(formatters('zh-CN').dateTime('2030-01-01T12:00:00.000Z', 'Asia/Shanghai')).toContain('2030');
    expect(formatters('en').dateTime(null)).toBe('–');
  });
});
