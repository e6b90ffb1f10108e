/**
 * The one error vocabulary of the API: a closed union of stable codes, mapped to HTTP status in one
 * place. Handlers throw AppError; the error-handler plugin renders problem+json.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  registration_not_approved: 403,
  not_found: 404,
  event_not_found: 404,
  not_registered: 404,
  registration_not_found: 404,
  user_not_found: 404,
  project_not_found: 404,
  flag_not_found: 404,
  invitation_not_found: 404,
  key_not_found: 404,
  session_not_found: 404,
  webhook_not_found: 404,
  webhook_delivery_not_found: 404,
  webhook_url_refused: 422,
  model_not_configured: 422,
  signup_closed: 403,
  invite_code_invalid: 403,
  invalid_credentials: 401,
  account_disabled: 403,
  account_unconfirmed: 403,
  csrf_failed: 403,
  reset_token_invalid: 410,
  signup_token_invalid: 410,
  method_not_allowed: 405,
  registration_closed: 409,
  already_registered: 409,
  registration_rejected_final: 409,
  team_name_taken: 409,
  already_in_team: 409,
  team_full: 409,
  team_too_small: 409,
  leader_must_hand_over: 409,
  registration_not_pending: 409,
  not_team_leader: 403,
  join_code_invalid: 404,
  team_member_not_found: 404,
  team_not_found: 404,
  join_request_not_found: 404,
  join_request_exists: 409,
  join_request_not_pending: 409,
  submission_closed: 409,
  results_not_published: 409,
  announcement_not_found: 404,
  announcement_already_published: 409,
  bundle_not_available: 404,
  gallery_not_open: 409,
  voting_closed: 409,
  vote_limit_reached: 409,
  project_not_in_vote: 409,
  own_project: 403,
  account_too_new: 403,
  vote_not_found: 404,
  invalid_transition: 409,
  event_locked: 409,
  email_taken: 409,
  last_admin: 409,
  not_judging: 409,
  results_already_published: 409,
  no_open_reviews: 409,
  no_reviewers: 409,
  invitation_used: 410,
  invitation_expired: 410,
  invitation_closed: 410,
  request_timeout: 408,
  uri_too_long: 414,
  unscored_projects: 409,
  unfinished_judging: 409,
  not_assigned_mode: 409,
  project_not_assigned: 403,
  idempotency_key_reused: 409,
  idempotency_key_in_use: 409,
  conflict_of_interest: 403,
  payload_too_large: 413,
  unsupported_media_type: 415,
  media_too_large: 413,
  media_type_unsupported: 415,
  media_type_mismatch: 415,
  media_not_found: 404,
  screenshot_limit_reached: 409,
  validation_failed: 422,
  rate_limited: 429,
  reminder_too_soon: 429,
  internal_error: 500,
  service_unavailable: 503,
  // The database is unreachable or did not answer in time (restart, crash, partition, overload).
  database_unavailable: 503,
  // Request headers past Node's header size limit (the parser refuses them before routing).
  headers_too_large: 431,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

const TITLES: Record<ErrorCode, string> = {
  bad_request: 'Bad request',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  registration_not_approved: 'Registration not approved',
  not_found: 'Not found',
  event_not_found: 'Event not found',
  not_registered: 'Not registered',
  registration_not_found: 'Registration not found',
  user_not_found: 'User not found',
  project_not_found: 'Project not found',
  flag_not_found: 'Flag not found',
  invitation_not_found: 'Invitation not found',
  key_not_found: 'API key not found',
  session_not_found: 'Session not found',
  webhook_not_found: 'Webhook not found',
  webhook_delivery_not_found: 'Webhook delivery not found',
  webhook_url_refused: 'Webhook URL refused',
  model_not_configured: 'Model not configured',
  signup_closed: 'Sign-up closed',
  invite_code_invalid: 'Invite code invalid',
  invalid_credentials: 'Invalid credentials',
  account_disabled: 'Account disabled',
  account_unconfirmed: 'Account not confirmed yet',
  csrf_failed: 'Cross-site request refused',
  reset_token_invalid: 'Reset link invalid',
  signup_token_invalid: 'Sign-up link invalid',
  method_not_allowed: 'Method not allowed',
  registration_closed: 'Registration closed',
  already_registered: 'Already registered',
  registration_rejected_final: 'Registration rejected as final',
  team_name_taken: 'Team name taken',
  already_in_team: 'Already in a team',
  team_full: 'Team full',
  team_too_small: 'Team too small',
  leader_must_hand_over: 'Leader must hand over',
  registration_not_pending: 'Registration no longer pending',
  not_team_leader: 'Not the team leader',
  join_code_invalid: 'Join code invalid',
  team_member_not_found: 'Team member not found',
  team_not_found: 'Team not found',
  join_request_not_found: 'Join request not found',
  join_request_exists: 'Join request already pending',
  join_request_not_pending: 'Join request already decided',
  submission_closed: 'Submission closed',
  results_not_published: 'Results not published',
  announcement_not_found: 'Announcement not found',
  announcement_already_published: 'Announcement already sent',
  bundle_not_available: 'Results bundle not available',
  gallery_not_open: 'Gallery not open',
  voting_closed: 'Voting closed',
  vote_limit_reached: 'No votes left',
  project_not_in_vote: 'Project not in the vote',
  own_project: 'Own project',
  media_too_large: 'Image too large',
  media_type_unsupported: 'Not a PNG, JPEG or WebP image',
  media_type_mismatch: 'Image type mismatch',
  media_not_found: 'No such image',
  screenshot_limit_reached: 'Screenshot limit reached',
  account_too_new: 'Account too new to vote',
  vote_not_found: 'Vote not found',
  invalid_transition: 'Invalid status transition',
  event_locked: 'Event locked',
  email_taken: 'E-mail already in use',
  last_admin: 'Last active administrator',
  not_judging: 'Event not in judging',
  results_already_published: 'Results already published',
  no_open_reviews: 'No open reviews',
  no_reviewers: 'No reviewers yet',
  invitation_used: 'Invitation already used',
  invitation_expired: 'Invitation expired',
  invitation_closed: 'Invitation closed',
  request_timeout: 'Request timeout',
  uri_too_long: 'URI too long',
  unscored_projects: 'Unscored projects',
  unfinished_judging: 'Human judging unfinished',
  not_assigned_mode: 'Not in assigned reviewing',
  project_not_assigned: 'Project not assigned to you',
  idempotency_key_reused: 'Idempotency key reused',
  idempotency_key_in_use: 'Idempotency key in use',
  conflict_of_interest: 'Conflict of interest',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  validation_failed: 'Validation failed',
  rate_limited: 'Too many requests',
  reminder_too_soon: 'Reminder too soon',
  internal_error: 'Internal server error',
  service_unavailable: 'Service unavailable',
  database_unavailable: 'Database unavailable',
  // Request headers past Node's header size limit.
  headers_too_large: 'Request headers too large',
};

export interface FieldError {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  /** Extra members of the problem document (e.g. the existing registration's `id`). */
  readonly extra: Record<string, unknown> | undefined;
  /** Sent as the `Retry-After` header (seconds): when asking again may give another answer. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, detail?: string, opts: { errors?: FieldError[]; extra?: Record<string, unknown>; retryAfterSeconds?: number } = {}) {
    super(detail ?? TITLES[code]);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.errors = opts.errors;
    this.extra = opts.extra;
    this.retryAfterSeconds = opts.retryAfterSeconds;
  }
}

export function validationError(errors: FieldError[], detail?: string): AppError {
  const summary = detail ?? errors.map((e) => `${e.field}: ${e.message}`).join('; ');
  return new AppError('validation_failed', summary, { errors });
}

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: FieldError[];
  [extra: string]: unknown;
}

export function toProblem(err: AppError, siteUrl: string): ProblemDocument {
  return {
    ...(err.extra ?? {}),
    type: `${siteUrl}/problems/${err.code}`,
    title: TITLES[err.code],
    status: err.status,
    detail: err.message,
    code: err.code,
    ...(err.errors ? { errors: err.errors } : {}),
  };
}

export function titleOf(code: ErrorCode): string {
  return TITLES[code];
}
