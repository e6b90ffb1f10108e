import type { Generated, Selectable } from 'kysely';

/** `withdrawn`: the team's leader withdrew it (DELETE /events/:id/team); it may register again like a non-final rejection. */
export type RegistrationStatus = 'pending' | 'approved' | 'rejected' | 'withdrawn';

export interface RegistrationsTable {
  id: string;
  event_id: string;
  user_id: string;
  team_name: string;
  team_name_key: string;
  track_id: string | null;
  contact_email: string;
  github_url: string | null;
  fields: string;
  status: RegistrationStatus;
  reason: string | null;
  /** 1 when the organizer rejected it as final: no re-application (stored as 0/1 on both databases). */
  rejected_final: Generated<number>;
  /** 1 for the first application, +1 for each re-application after a rejection. */
  attempt: Generated<number>;
  reapplied_at: string | null;
  created_at: string;
  updated_at: string;
  /** How many people are in the team (team_members rows), kept by the same transactions (since 0214). */
  member_count: Generated<number>;
}

export type TeamRole = 'leader' | 'member';

/** One person in a team (since 0214): a person is in at most one team per event. */
export interface TeamMembersTable {
  registration_id: string;
  event_id: string;
  user_id: string;
  role: TeamRole;
  joined_at: string;
}

/** Someone who left a team or was removed from it (since 0234): never a voter for its project. */
export interface TeamFormerMembersTable {
  registration_id: string;
  user_id: string;
  left_at: string;
}

/** A join code for a team: sha256 stored, the code shown once. */
export interface TeamInvitationsTable {
  /** `tinv_…` */
  id: string;
  registration_id: string;
  event_id: string;
  code_hash: string;
  email: string | null;
  created_by: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** Where a project's reviews stand: none started, some running, all done (reviews-repo.ts moves it). */
export type ProjectReviewStatus = 'pending' | 'in_review' | 'reviewed';

export interface ProjectsTable {
  id: string;
  event_id: string;
  registration_id: string;
  project_name: string;
  description: string | null;
  github_url: string;
  project_website: string | null;
  demo_video_url: string | null;
  team_size: number | null;
  track_id: string | null;
  status: 'submitted';
  review_status: ProjectReviewStatus;
  first_submitted_at: string;
  created_at: string;
  updated_at: string;
  /** 1 when the organizer took the project out of the people's choice vote. */
  vote_excluded: Generated<number>;
  /** Who last created or changed it; null for rows written before 0214. */
  updated_by_user_id: Generated<string | null>;
  /** The github_url the last completed build-window check was for; null: never checked (since 0229). */
  build_window_url: Generated<string | null>;
  /** When a skipped build-window check (GitHub rate-limited or down) is tried again; null: not waiting. */
  build_window_retry_at: Generated<string | null>;
  /** The hacking start the last completed build-window check compared with; another start makes it due. */
  build_window_start: Generated<string | null>;
  /** The lower-cased owner/repo of the github_url last checked (null: none, or not a GitHub repository): the duplicate check's group, indexed with event_id. */
  build_window_repo: Generated<string | null>;
  /** A one-line pitch shown on cards and the page (since 0235); null: none. */
  tagline: Generated<string | null>;
  /** "Built with" tags, normalised (project-showcase.ts), as a JSON array of strings. */
  tags: Generated<string>;
  /** The screenshots in display order, a JSON array of {id, v, width, height} (ScreenshotRef); bytes in project_screenshots. */
  screenshots: Generated<string>;
}

/** A project's screenshot bytes (since 0235); the project row's `screenshots` names the current ones and their order. */
export interface ProjectScreenshotsTable {
  project_id: string;
  /** `shot_…` */
  id: string;
  content_type: string;
  bytes: Buffer;
  sha256: string;
  width: number;
  height: number;
  created_at: string;
}

export type RegistrationRow = Selectable<RegistrationsTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type TeamMemberRow = Selectable<TeamMembersTable>;
export type TeamInvitationRow = Selectable<TeamInvitationsTable>;

/** A person looking for a team in an event (since 0239): one entry per person per event. */
export interface TeamSeekersTable {
  event_id: string;
  user_id: string;
  /** What they bring or look for, one line (≤ 200 characters). */
  line: string;
  /** Normalised skills as a JSON array of strings (team-finder.ts). */
  skills: Generated<string>;
  created_at: string;
  updated_at: string;
}

/** What a team looks for (since 0239): the skills it needs and a line; one row per registration. */
export interface TeamNeedsTable {
  registration_id: string;
  event_id: string;
  line: Generated<string>;
  skills: Generated<string>;
  updated_at: string;
}

export type JoinRequestStatus = 'pending' | 'accepted' | 'declined' | 'withdrawn';

/** A person's request to join a team (since 0239); at most one pending per person per team. */
export interface TeamJoinRequestsTable {
  /** `tjr_…` */
  id: string;
  event_id: string;
  registration_id: string;
  user_id: string;
  message: Generated<string>;
  status: JoinRequestStatus;
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
}

export type TeamSeekerRow = Selectable<TeamSeekersTable>;
export type TeamJoinRequestRow = Selectable<TeamJoinRequestsTable>;
