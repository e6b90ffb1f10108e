/** The API shapes the organizer's event page reads (docs/api.md). */

export type EventStatus = 'draft' | 'open' | 'active' | 'judging' | 'ended' | 'cancelled';

export interface EventTrack {
  id: string;
  name: string;
  prize?: string | null;
}

export interface EventDetail {
  id: string;
  name: string;
  description: string;
  status: EventStatus;
  registration_deadline: string;
  submission_deadline: string;
  result_announced_at: string | null;
  tracks: EventTrack[];
  dimensions: { name: string; weight: number }[];
  models: string[];
  registration_config: { open: boolean; auto_approve: boolean; fields: { key: string; label: string; type: string; required: boolean }[] };
}

/** What every tab of the event page receives. */
export interface TabProps {
  event: EventDetail;
}

export interface ModelProgress {
  reviewer: string;
  pending: number;
  running: number;
  done: number;
  failed: number;
}

export interface EventStats {
  event_id: string;
  registrations: { pending: number; approved: number; rejected: number };
  projects: number;
  judged_projects: number;
  reviews: { by_model: ModelProgress[]; human: { reviewers: number; invitations_pending: number; reviews_done: number } };
  reviewers: { user_id: string; email: string; reviewed: number; assigned: number }[];
}

export interface Registration {
  id: string;
  status: 'pending' | 'approved' | 'rejected';
  team_name: string;
  track_id: string | null;
  contact_email: string;
  github_url: string | null;
  fields: Record<string, string | number | null>;
  reason: string | null;
  /** Rejected as final: the team may not re-apply. */
  final?: boolean;
  /** 1 for a first application, more after re-applications. */
  attempt?: number;
  reapplied_at?: string | null;
  created_at: string;
  updated_at: string;
}

export interface Project {
  id: string;
  team_name: string;
  project_name: string;
  description: string | null;
  github_url: string;
  project_website: string | null;
  demo_video_url: string | null;
  team_size: number | null;
  track_id: string | null;
  review_status: 'pending' | 'in_review' | 'reviewed';
  submitted_at: string;
  updated_at: string;
}

export interface Review {
  id: string;
  project_id: string;
  project_name: string;
  team_name: string;
  reviewer: string;
  reviewer_kind: 'model' | 'human';
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  attempts: number;
  failure_reason: string | null;
  completed_at: string | null;
  updated_at: string;
}

export interface LeaderboardEntry {
  rank: number;
  project_id: string;
  project_name: string;
  team_name: string;
  track_id: string | null;
  score: number;
  scores_by_model: Record<string, number>;
  scores_by_dimension: Record<string, number>;
  reviews: { expected: number; succeeded: number; failed: number; pending: number; human: number };
}

export interface Invitation {
  id: string;
  email: string;
  status: string;
  expires_at: string;
  created_at: string;
}

export interface ReviewersAnswer {
  event_id: string;
  reviewers: { user_id: string; email: string; added_at: string; reviews_count: number }[];
  invitations: Invitation[];
}
