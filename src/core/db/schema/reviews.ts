import type { Selectable } from 'kysely';

export interface GithubRepoFactsTable {
  /** Lower-cased `owner/repo`. */
  repo_key: string;
  /** JSON: RepoFacts (src/reviews/build-window.ts). */
  facts: string;
  fetched_at: string;
}

export type ReviewStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface ReviewsTable {
  id: string;
  event_id: string;
  project_id: string;
  /** 'model' for an AI model, 'human' for an invited reviewer. */
  reviewer_kind: 'model' | 'human';
  /** The model identifier (provider/model) or the human reviewer's user id. */
  reviewer: string;
  /** The scoring group: the model identifier, or 'human' for every human reviewer. */
  group_key: string;
  status: ReviewStatus;
  /** JSON object dimension name -> number 0..10, only when succeeded. */
  scores: string | null;
  summary: string | null;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  latency_ms: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  raw_reply: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface ProjectFlagsTable {
  id: string;
  event_id: string;
  project_id: string;
  /** prompt_injection (screening) or build_window (build-window checks, src/reviews/build-window.ts). */
  kind: string;
  /** Where the evidence was found: project.description, repository.readme, … */
  source: string;
  evidence: string;
  /** What matched (a screening pattern's id), or other detail of the finding. */
  detail: string | null;
  evidence_key: string;
  status: 'open' | 'checked';
  note: string | null;
  checked_by: string | null;
  checked_at: string | null;
  created_at: string;
  updated_at: string;
}

export type ReviewRow = Selectable<ReviewsTable>;
export type ProjectFlagRow = Selectable<ProjectFlagsTable>;
