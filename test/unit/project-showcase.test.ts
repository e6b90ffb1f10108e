import { describe, expect, it } from 'vitest';
import { checkTagline, checkTags, videoEmbed } from '../../src/registrations/project-showcase.js';

describe('videoEmbed', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10s', 'youtube', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?v=dQw4w9WgXcQ', 'youtube', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?si=abc', 'youtube', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://youtube.com/shorts/dQw4w9WgXcQ', 'youtube', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://vimeo.com/76979871', 'vimeo', 'https://player.vimeo.com/video/76979871'],
    ['https://vimeo.com/76979871/abcdef1234', 'vimeo', 'https://player.vimeo.com/video/76979871?h=abcdef1234'],
    ['https://www.loom.com/share/0281766fa2d04bb788eaf19e65135184', 'loom', 'https://www.loom.com/embed/0281766fa2d04bb788eaf19e65135184'],
    ['https://www.bilibili.com/video/BV1GJ411x7h7/', 'bilibili', 'https://player.bilibili.com/player.html?bvid=BV1GJ411x7h7&autoplay=0'],
    ['https://www.bilibili.com/video/av170001', 'bilibili', 'https://player.bilibili.com/player.html?aid=170001&autoplay=0'],
  ])('%s → %s player', (url, provider, embed) => {
    expect(videoEmbed(url)).toEqual({ provider, url, embed_url: embed });
  });

  it.each([
    'https://example.com/video.mp4',
    'https://www.youtube.com/watch?v=short',
    'https://youtube.com/@channel',
    'https://vimeo.com/channels/staffpicks',
    'https://evil.com/youtube.com/watch?v=dQw4w9WgXcQ',
    'https://youtube.com.evil.com/watch?v=dQw4w9WgXcQ',
    'javascript:alert(1)',
    'not a url',
  ])('%s → null (a plain link)', (url) => {
    expect(videoEmbed(url)).toBeNull();
  });
  it('no link, no video', () => expect(videoEmbed(null)).toBeNull());
});

describe('tagline and tags', () => {
  it('a tagline is one trimmed line of at most 140 characters', () => {
    expect(checkTagline('  Agents that plan  ')).toEqual({ value: 'Agents that plan' });
    expect(checkTagline('a\nb')).toEqual({ error: 'must be one line' });
    expect(checkTagline('x'.repeat(140))).toEqual({ value: 'x'.repeat(140) });
    expect(checkTagline('x'.repeat(141))).toEqual({ error: 'must be at most 140 characters' });
    expect(checkTagline('星'.repeat(140))).toEqual({ value: '星'.repeat(140) });
  });
  it('tags are normalised, merged when equal, at most 10 of 32 characters', () => {
    expect(checkTags(['#Next JS', 'next_js', 'Rust', ' rust '])).toEqual({ value: ['next-js', 'rust'] });
    expect(checkTags(['  '])).toEqual({ error: '"  " is empty once normalised' });
    expect(checkTags(['a'.repeat(33)])).toMatchObject({ error: expect.stringContaining('32') });
    expect(checkTags(Array.from({ length: 11 }, (_, i) => `t${i}`))).toEqual({ error: 'at most 10 tags' });
    expect(checkTags([...Array.from({ length: 10 }, (_, i) => `t${i}`), 'T0'])).toMatchObject({ value: expect.any(Array) });
  });
});
