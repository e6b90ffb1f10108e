import { describe, expect, it } from 'vitest';
import type { Track } from '../../src/events/event-config.js';
import { PROJECT_LIMITS, validateSubmission, type SubmissionInput } from '../../src/submissions/submission-input.js';

const tracks: Track[] = [
  { id: 'tools', name: 'Tools', prize: '' },
  { id: 'fun', name: 'Fun', prize: '' },
];
const withTracks = { tracks, registrationTrack: 'tools' };
const noTracks = { tracks: [], registrationTrack: null };
const base: SubmissionInput = { project_name: 'Rocket', github_url: 'https://github.com/a/b' };
const errs = (input: SubmissionInput, ctx: Parameters<typeof validateSubmission>[1] = withTracks) => validateSubmission(input, ctx).errors.map((e) => e.field);

describe('validateSubmission', () => {
  it('accepts the minimum (name and github_url) and nulls the optional fields', () => {
    const { value, errors } = validateSubmission(base, withTracks);
    expect(errors).toEqual([]);
    expect(value).toEqual({
      project_name: 'Rocket',
      github_url: 'https://github.com/a/b',
      project_website: null,
      demo_video_url: null,
      team_size: null,
      description: null,
      track_id: 'tools',
    });
  });

  it('accepts every optional field in variant A', () => {
    const { value, errors } = validateSubmission(
      {
        ...base,
        project_website: 'https://rocket.dev',
        demo_video_url: 'https://youtu.be/x',
        team_size: 4,
        description: '  Goes up.  ',
        track_id: 'tools',
      },
      withTracks,
    );
    expect(errors).toEqual([]);
    expect(value).toMatchObject({
      project_website: 'https://rocket.dev',
      demo_video_url: 'https://youtu.be/x',
      team_size: 4,
      description: 'Goes up.',
      track_id: 'tools',
    });
  });

  it('keeps the registered track: left out it is taken, repeated it is accepted, another one is refused', () => {
    expect(validateSubmission(base, withTracks).value.track_id).toBe('tools');
    expect(errs({ ...base, track_id: 'tools' })).toEqual([]);
    expect(validateSubmission({ ...base, track_id: 'fun' }, withTracks).errors).toEqual([
      { field: 'track_id', message: 'must be your registered track "tools" (leave track_id out to keep it)' },
    ]);
  });

  it('accepts name for project_name and demo_url for demo_video_url (variant B)', () => {
    const { value, errors } = validateSubmission({ name: ' Rocket ', github_url: 'https://github.com/g/x', demo_url: 'https://v.io/d' }, withTracks);
    expect(errors).toEqual([]);
    expect(value.project_name).toBe('Rocket');
    expect(value.demo_video_url).toBe('https://v.io/d');
  });

  it('accepts both spellings when equal and refuses them when they differ', () => {
    expect(errs({ ...base, name: 'Rocket' })).toEqual([]);
    expect(errs({ ...base, name: 'Other' })).toEqual(['name']);
    expect(errs({ ...base, demo_url: 'https://a.io', demo_video_url: 'https://a.io' })).toEqual([]);
    expect(errs({ ...base, demo_url: 'https://a.io', demo_video_url: 'https://b.io' })).toEqual(['demo_url']);
  });

  it('requires a project name and a github_url', () => {
    expect(errs({ github_url: base.github_url })).toEqual(['project_name']);
    expect(errs({ project_name: '   ', github_url: base.github_url })).toEqual(['project_name']);
    expect(errs({ project_name: 'x' })).toEqual(['github_url']);
    expect(errs({ project_name: 'x', github_url: '  ' })).toEqual(['github_url']);
  });

  it('limits the project name to 120 characters and the description to 10,000', () => {
    expect(errs({ ...base, project_name: 'x'.repeat(PROJECT_LIMITS.name + 1) })).toEqual(['project_name']);
    expect(errs({ ...base, project_name: 'x'.repeat(PROJECT_LIMITS.name) })).toEqual([]);
    expect(errs({ ...base, description: 'd'.repeat(PROJECT_LIMITS.description + 1) })).toEqual(['description']);
    expect(errs({ ...base, description: 'd'.repeat(PROJECT_LIMITS.description) })).toEqual([]);
  });

  it('refuses URLs that are not absolute http(s) or are too long', () => {
    for (const bad of ['github.com/a', 'javascript:alert(1)', 'file:///etc/passwd', 'ftp://x.org']) {
      expect(errs({ ...base, github_url: bad }), bad).toEqual(['github_url']);
      expect(errs({ ...base, project_website: bad }), bad).toEqual(['project_website']);
      expect(errs({ ...base, demo_video_url: bad }), bad).toEqual(['demo_video_url']);
      expect(errs({ ...base, demo_url: bad }), bad).toEqual(['demo_url']);
    }
    expect(errs({ ...base, github_url: 'https://g.io/' + 'a'.repeat(PROJECT_LIMITS.url) })).toEqual(['github_url']);
  });

  it('accepts team_size 1..100 whole numbers only', () => {
    for (const ok of [1, 100]) expect(errs({ ...base, team_size: ok })).toEqual([]);
    for (const bad of [0, 101, 2.5, -1]) expect(errs({ ...base, team_size: bad }), String(bad)).toEqual(['team_size']);
  });

  it("defaults the track to the registration's and refuses unknown tracks", () => {
    expect(validateSubmission(base, withTracks).value.track_id).toBe('tools');
    expect(errs({ ...base, track_id: 'nope' })).toEqual(['track_id']);
  });

  it('refuses a track when the event has none', () => {
    expect(errs({ ...base, track_id: 'tools' }, noTracks)).toEqual(['track_id']);
    expect(validateSubmission(base, noTracks).value.track_id).toBeNull();
  });

  it('takes only a GitHub repository URL as github_url, and says where other links go', () => {
    for (const ok of [
      'https://github.com/acme/rocket',
      'https://github.com/acme/rocket.git',
      'https://github.com/acme/rocket/',
      'https://github.com/a-b/.github',
    ]) {
      expect(errs({ ...base, github_url: ok }), ok).toEqual([]);
    }
    for (const bad of [
      'http://github.com/acme/rocket',
      'https://gitlab.com/acme/rocket',
      'https://github.com/acme',
      'https://github.com/acme/rocket/issues',
      'https://example.com',
      'https://github.com/acme/..',
    ]) {
      expect(validateSubmission({ ...base, github_url: bad }, withTracks).errors, bad).toEqual([
        { field: 'github_url', message: 'must be a GitHub repository URL, https://github.com/<owner>/<repo>; put any other link in project_website' },
      ]);
    }
  });
});
