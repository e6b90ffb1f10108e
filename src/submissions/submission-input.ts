import type { FieldError } from '../core/errors.js';
import { GITHUB_URL_MESSAGE, isGithubRepoUrl, isHttpUrl } from '../core/urls.js';
import type { Track } from '../events/event-config.js';
import { checkTagline, checkTags } from '../registrations/project-showcase.js';

export const PROJECT_LIMITS = { name: 120, description: 10_000, url: 2048, teamSizeMax: 100 } as const;

/** What a client may send to submit: either spelling of the name and the demo URL. */
export interface SubmissionInput {
  project_name?: string;
  name?: string;
  github_url?: string;
  project_website?: string;
  demo_video_url?: string;
  demo_url?: string;
  team_size?: number;
  description?: string;
  track_id?: string;
  tagline?: string;
  tags?: string[];
}

export interface NormalisedSubmission {
  project_name: string;
  github_url: string;
  project_website: string | null;
  demo_video_url: string | null;
  team_size: number | null;
  description: string | null;
  track_id: string | null;
  /** The one-line pitch; undefined: not sent (the project keeps its own), '' clears it. */
  tagline?: string | undefined;
  /** The normalised tags; undefined: not sent (kept). */
  tags?: string[] | undefined;
}

export function validateSubmission(
  input: SubmissionInput,
  ctx: { tracks: Track[]; registrationTrack: string | null },
): { value: NormalisedSubmission; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (input.project_name !== undefined && input.name !== undefined && input.project_name.trim() !== input.name.trim()) {
    errors.push({ field: 'name', message: 'project_name and name must be equal when both are given' });
  }
  const name = (input.project_name ?? input.name ?? '').trim();
  if (!name) errors.push({ field: 'project_name', message: 'is required (project_name or name)' });
  else if (name.length > PROJECT_LIMITS.name) errors.push({ field: 'project_name', message: `must be at most ${PROJECT_LIMITS.name} characters` });

  const url = (field: string, raw: string | undefined, required: boolean): string | null => {
    const v = raw?.trim();
    if (!v) {
      if (required) errors.push({ field, message: 'is required' });
      return null;
    }
    if (v.length > PROJECT_LIMITS.url || !isHttpUrl(v)) {
      errors.push({ field, message: 'must be an absolute http(s) URL' });
      return null;
    }
    return v;
  };
  let github = url('github_url', input.github_url, true) ?? '';
  if (github && !isGithubRepoUrl(github)) {
    errors.push({ field: 'github_url', message: `${GITHUB_URL_MESSAGE}; put any other link in project_website` });
    github = '';
  }
  const website = url('project_website', input.project_website, false);
  if (input.demo_video_url !== undefined && input.demo_url !== undefined && input.demo_video_url.trim() !== input.demo_url.trim()) {
    errors.push({ field: 'demo_url', message: 'demo_video_url and demo_url must be equal when both are given' });
  }
  const demo = url(input.demo_video_url !== undefined ? 'demo_video_url' : 'demo_url', input.demo_video_url ?? input.demo_url, false);

  const teamSize = input.team_size ?? null;
  if (teamSize !== null && (!Number.isInteger(teamSize) || teamSize < 1 || teamSize > PROJECT_LIMITS.teamSizeMax)) {
    errors.push({ field: 'team_size', message: `must be a whole number from 1 to ${PROJECT_LIMITS.teamSizeMax}` });
  }
  const description = input.description?.trim() || null;
  if (description && description.length > PROJECT_LIMITS.description) {
    errors.push({ field: 'description', message: `must be at most ${PROJECT_LIMITS.description} characters` });
  }

  // The project competes in the track the team registered for: a submit may repeat it or leave it
  // out, never move the project elsewhere (the registration, which the organizer approved, decides).
  let track = input.track_id ?? ctx.registrationTrack;
  if (ctx.tracks.length === 0) {
    if (input.track_id) errors.push({ field: 'track_id', message: 'this event has no tracks' });
    track = null;
  } else if (input.track_id !== undefined && ctx.registrationTrack !== null && input.track_id !== ctx.registrationTrack) {
    errors.push({ field: 'track_id', message: `must be your registered track "${ctx.registrationTrack}" (leave track_id out to keep it)` });
  } else if (track && !ctx.tracks.some((t) => t.id === track)) {
    errors.push({ field: 'track_id', message: `unknown track; one of: ${ctx.tracks.map((t) => t.id).join(', ')}` });
  }

  let tagline: string | undefined;
  if (input.tagline !== undefined) {
    const t = checkTagline(input.tagline);
    if ('error' in t) errors.push({ field: 'tagline', message: t.error });
    else tagline = t.value;
  }
  let tags: string[] | undefined;
  if (input.tags !== undefined) {
    const t = checkTags(input.tags);
    if ('error' in t) errors.push({ field: 'tags', message: t.error });
    else tags = t.value;
  }

  return {
    value: {
      project_name: name,
      github_url: github,
      project_website: website,
      demo_video_url: demo,
      team_size: teamSize,
      description,
      track_id: track ?? null,
      tagline,
      tags,
    },
    errors,
  };
}
