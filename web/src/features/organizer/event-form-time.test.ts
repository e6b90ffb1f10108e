import { describe, expect, it } from 'vitest';
import { formatDateTime, formatUtc, offsetLabel, timeZones, utcToWall, wallToUtc } from './event-form-time';

describe('wallToUtc', () => {
  it('converts a plain wall time in a zone with DST (winter and summer offsets)', () => {
    expect(wallToUtc({ date: '2026-12-01', time: '09:00' }, 'Europe/Berlin')).toEqual({ iso: '2026-12-01T08:00:00.000Z', kind: 'exact' });
    expect(wallToUtc({ date: '2026-07-01', time: '09:00' }, 'Europe/Berlin')).toEqual({ iso: '2026-07-01T07:00:00.000Z', kind: 'exact' });
  });

  it('moves a time in the spring-forward gap forward by the gap', () => {
    // 2026-03-08 02:30 does not exist in New York (02:00 EST -> 03:00 EDT): read as 03:30 EDT.
    expect(wallToUtc({ date: '2026-03-08', time: '02:30' }, 'America/New_York')).toEqual({ iso: '2026-03-08T07:30:00.000Z', kind: 'gap' });
    expect(utcToWall('2026-03-08T07:30:00.000Z', 'America/New_York')).toEqual({ date: '2026-03-08', time: '03:30' });
  });

  it('takes the earlier instant of a time repeated when clocks go back', () => {
    // 2026-11-01 01:30 happens at 05:30Z (EDT) and again at 06:30Z (EST).
    expect(wallToUtc({ date: '2026-11-01', time: '01:30' }, 'America/New_York')).toEqual({ iso: '2026-11-01T05:30:00.000Z', kind: 'ambiguous' });
    expect(wallToUtc({ date: '2026-10-25', time: '02:30' }, 'Europe/Berlin')).toEqual({ iso: '2026-10-25T00:30:00.000Z', kind: 'ambiguous' });
  });

  it('handles the extreme offsets UTC+14 and UTC-12 across the date line', () => {
    expect(wallToUtc({ date: '2027-01-01', time: '00:00' }, 'Pacific/Kiritimati')).toEqual({ iso: '2026-12-31T10:00:00.000Z', kind: 'exact' });
    expect(wallToUtc({ date: '2026-12-31', time: '23:59' }, 'Etc/GMT+12')).toEqual({ iso: '2027-01-01T11:59:00.000Z', kind: 'exact' });
  });

  it('handles half- and quarter-hour zones', () => {
    expect(wallToUtc({ date: '2026-12-01', time: '09:00' }, 'Asia/Kolkata')).toEqual({ iso: '2026-12-01T03:30:00.000Z', kind: 'exact' });
    expect(wallToUtc({ date: '2026-12-01', time: '09:00' }, 'Asia/Kathmandu')).toEqual({ iso: '2026-12-01T03:15:00.000Z', kind: 'exact' });
    // Adelaide: +10:30 in its summer (December).
    expect(wallToUtc({ date: '2026-12-01', time: '09:00' }, 'Australia/Adelaide')).toEqual({ iso: '2026-11-30T22:30:00.000Z', kind: 'exact' });
  });

  it('refuses what is not a date, a time or a zone', () => {
    expect(wallToUtc({ date: '2026-02-30', time: '09:00' }, 'UTC')).toBeNull();
    expect(wallToUtc({ date: '2026-12-01', time: '24:00' }, 'UTC')).toBeNull();
    expect(wallToUtc({ date: '', time: '09:00' }, 'UTC')).toBeNull();
    expect(wallToUtc({ date: '2026-12-01', time: '09:00' }, 'Mars/Olympus')).toBeNull();
  });
});

describe('utcToWall', () => {
  it('is the inverse of wallToUtc for exact times', () => {
    for (const zone of ['UTC', 'Asia/Shanghai', 'America/Los_Angeles', 'Pacific/Kiritimati', 'Etc/GMT+12', 'Asia/Kolkata']) {
      const wall = { date: '2026-06-15', time: '18:45' };
      const r = wallToUtc(wall, zone)!;
      expect(utcToWall(r.iso, zone)).toEqual(wall);
    }
  });

  it('refuses a bad instant or zone', () => {
    expect(utcToWall('nope', 'UTC')).toBeNull();
    expect(utcToWall('2026-01-01T00:00:00Z', 'Nowhere/City')).toBeNull();
  });
});

describe('labels', () => {
  it('formats the stored instant and the zone offset', () => {
    expect(formatUtc('2026-12-01T09:00:00.000Z')).toBe('2026-12-01 09:00 UTC');
    expect(formatUtc('x')).toBe('');
    expect(offsetLabel('Asia/Kolkata', '2026-01-01T00:00:00Z')).toBe('UTC+05:30');
    expect(offsetLabel('America/New_York', '2026-07-01T00:00:00Z')).toBe('UTC-04:00');
    expect(offsetLabel('UTC')).toBe('UTC+00:00');
  });

  it('lists UTC first and once', () => {
    const zones = timeZones();
    expect(zones[0]).toBe('UTC');
    expect(zones.filter((z) => z === 'UTC')).toHaveLength(1);
    expect(zones).toContain('Asia/Shanghai');
    expect(timeZones(['Etc/GMT-14', 'UTC', 'Not/AZone'])).toContain('Etc/GMT-14');
    expect(timeZones(['Not/AZone'])).not.toContain('Not/AZone');
  });
});

describe('formatDateTime', () => {
  it('formats in the locale and zone, with the zone named', () => {
    expect(formatDateTime('en', '2026-12-03T14:30:00.000Z', 'Asia/Tehran')).toBe('Dec 3, 2026, 6:00 PM GMT+3:30');
    expect(formatDateTime('en', '2026-12-03T14:30:00.000Z', 'UTC')).toBe('Dec 3, 2026, 2:30 PM UTC');
    expect(formatDateTime('zh-CN', '2026-12-03T14:30:00.000Z', 'Asia/Shanghai')).toContain('2026年12月3日');
    expect(formatDateTime('en', null)).toBe('–');
  });
});
