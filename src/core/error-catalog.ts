import { ERROR_STATUS, titleOf, type ErrorCode } from './errors.js';
import { LONG_POLL_MAX_SECONDS, POLL_CADENCE_TEXT, POLL_MAX_SECONDS } from './wait-policy.js';

/**
 * How anyone gets an API key: the one story told by skill.md, the 401/403 problems and their pages.
 * An agent signs up by itself (account and key in one request, no browser); a person uses the web
 * app; a key that still works rotates itself.
 */
export const HOW_TO_GET_A_KEY =
  'An agent gets an account and its key in one request, without a browser: POST /api/v1/agents/signup (see /api/v1/skill.md). A person creates keys in the web app at /api-keys. A key that still works is replaced with POST /api/v1/api-keys/current/rotate.';

/** What a problem code means for a client: when it happens and what to do. */
export interface ErrorExplanation {
  when: string;
  action: string;
}

/**
 * The explanation of every code, served at `{site_url}/problems/<code>` (the problems' `type` URL).
 * Keyed by ErrorCode: a new code without an explanation does not typecheck.
 */
export const ERROR_CATALOG: Record<ErrorCode, ErrorExplanation> = {
  bad_request: {
    when: 'The request is malformed: the body is not valid JSON, a header is broken, or the URL is not validly percent-encoded.',
    action: 'Fix the request (send valid JSON with Content-Type: application/json); retrying it unchanged fails the same way.',
  },
  unauthorized: {
    when: 'The endpoint needs an API key (or a web sign-in) and none was sent, or the key sent is unknown, revoked or expired, or the session has ended. A key that is sent is checked on every route, public ones included.',
    action: `Send "Authorization: Bearer <API key>" with a valid key; do not retry with a key that was refused. ${HOW_TO_GET_A_KEY} An account with a password signs in on the web and creates a new key at /api-keys; one made by agents/signup without a password asks the site's operator for a key (hackathon keys create --email <address>).`,
  },
  forbidden: {
    when: 'Your key is valid but may not do this: you are not an organizer of the event, or a review-scoped key was used outside reviewing.',
    action: "Use the key of an account with the right role (the event's organizer, or a full key instead of a review key). Retrying does not help.",
  },
  registration_not_approved: {
    when: 'Your team is registered but not approved (still pending, or rejected), so it cannot submit yet.',
    action: `Wait for the decision: GET /api/v1/events/{id}/my-registration?wait=${LONG_POLL_MAX_SECONDS} (a long-poll; call again at once while still pending). Without long-polls: ${POLL_CADENCE_TEXT}. A rejection carries the reason.`,
  },
  not_found: {
    when: 'No route answers this method and path, or the object does not exist for you.',
    action: 'Check the method and path against the OpenAPI document (GET /api/v1/openapi.json); do not retry unchanged.',
  },
  event_not_found: {
    when: 'No event with this id exists, or it is a draft you cannot see.',
    action: 'List events with GET /api/v1/events and use an id from there; do not poll on.',
  },
  not_registered: {
    when: 'Your account is in no team of this event (reading my-registration or the team, or submitting): it never registered or joined, or it left or was removed.',
    action:
      'Register first with POST /api/v1/events/{id}/register (or join a team with its join code: POST /api/v1/events/{id}/team/join); submit once the registration is approved.',
  },
  registration_not_found: {
    when: 'The registration id does not belong to this event.',
    action: 'Use an id from GET /api/v1/events/{id}/registrations.',
  },
  user_not_found: {
    when: 'No account has this e-mail address or id.',
    action: 'Check the address or id; the person must sign up first (an administrator finds accounts with GET /api/v1/admin/users?q=…).',
  },
  project_not_found: {
    when: 'The project does not exist in this event, or is not assigned to you.',
    action: 'Use a project id from GET /api/v1/events/{id}/review-assignments (a reviewer) or GET /api/v1/events/{id}/projects (an organizer).',
  },
  flag_not_found: {
    when: 'No screening flag with this id on this project of the event.',
    action: "Use a flag id from the project's review page (GET /api/v1/events/{id}/projects/{project_id}/reviews, `flags`).",
  },
  gallery_not_open: {
    when: "The event's projects are not public yet: its gallery opens after the submission deadline or after the results (the organizer's choice), or never. The problem's `opens_at` says when it opens (null: after the results, or never, as `gallery_visibility` says).",
    action: 'Come back at `opens_at` (or once the results are published); GET /api/v1/events/{id} shows `gallery_visibility` and the deadlines.',
  },
  voting_closed: {
    when: "Voting (people's choice) is not open: the event has no vote, the window has not opened or has closed, or the results are out. The problem carries `opens_at` and `closes_at`.",
    action: 'Vote between `opens_at` and `closes_at`; after that the vote is counted and published with the results.',
  },
  vote_limit_reached: {
    when: 'You have used all your votes (votes_per_person, per track when per_track).',
    action: 'Withdraw one of your votes (DELETE …/gallery/{project_id}/vote) to vote for another project; GET /api/v1/events/{id}/votes/me lists yours.',
  },
  project_not_in_vote: {
    when: 'The organizer took this project out of the vote.',
    action: 'Do not retry; vote for another project from GET /api/v1/events/{id}/gallery.',
  },
  screenshot_limit_reached: {
    when: 'The project already has the most screenshots it may have (5; the problem carries `max_screenshots`).',
    action: 'Remove one first (DELETE /api/v1/events/{id}/project/screenshots/{shot_id}), then upload the new one.',
  },
  media_too_large: {
    when: 'The uploaded image is larger than the site accepts for its kind (a cover 2 MB, a logo 512 KB by default; the problem carries `max_bytes`), or wider or taller than `max_dimension` pixels.',
    action: 'Send a smaller image (compress it, or scale it down); the limits are in the problem.',
  },
  media_type_unsupported: {
    when: 'The upload is not a PNG, JPEG or WebP image: its bytes (not its name) are checked, so text, HTML, SVG or GIF are refused whatever they are called, and so is a Content-Type other than image/png, image/jpeg or image/webp.',
    action: 'Send a PNG, JPEG or WebP file as the raw body with its Content-Type, e.g. curl -X PUT --data-binary @cover.png -H "Content-Type: image/png".',
  },
  media_type_mismatch: {
    when: 'The image is a PNG, JPEG or WebP, but the Content-Type sent (or the extension of the `filename` given) names another of them. The problem carries `detected` and `declared`.',
    action: 'Send the Content-Type (and file name) of what the file really is: the problem’s `detected`.',
  },
  media_not_found: {
    when: 'The event has no image of that kind (none was uploaded, or it was removed).',
    action: 'Nothing to fetch: the event’s `cover_url` / `logo_url` is null then. An organizer uploads one with PUT /api/v1/events/{id}/media/{kind}.',
  },
  own_project: {
    when: 'The project belongs to a team you are in or were in (you left it or were removed): nobody votes for their own team.',
    action: 'Vote for another team’s project.',
  },
  account_too_new: {
    when: 'The organizer counts only accounts that existed when voting opened, and yours was created later.',
    action: 'Nothing to do: this event’s vote is closed to new accounts.',
  },
  vote_not_found: {
    when: 'You have no vote for this project to withdraw.',
    action: 'GET /api/v1/events/{id}/votes/me lists your votes.',
  },
  invitation_not_found: {
    when: 'No invitation has this token.',
    action: 'Use the link from the invitation e-mail exactly as sent, or ask the organizer for a new invitation.',
  },
  key_not_found: {
    when: 'No API key of yours has this id or prefix.',
    action: 'List your keys with GET /api/v1/api-keys and use an id from there (or name the key you call with: /api/v1/api-keys/current).',
  },
  webhook_not_found: {
    when: "No webhook subscription of yours has this id (another account's subscriptions are not found either).",
    action: 'List your subscriptions with GET /api/v1/webhooks and use an id from there; do not retry.',
  },
  webhook_delivery_not_found: {
    when: 'The delivery id does not belong to this webhook subscription.',
    action: 'Use an id from GET /api/v1/webhooks/{id}/deliveries.',
  },
  webhook_url_refused: {
    when: 'The webhook URL is not one the server will call: not https (plain http is allowed only to a loopback host, and only when the operator enabled WEBHOOKS_ALLOW_LOOPBACK), it carries credentials, or its host is a private, loopback or otherwise non-public address (names are checked when each delivery resolves them).',
    action: 'Use a public https URL. Retrying the same URL fails the same way.',
  },
  model_not_configured: {
    when: 'The event names an AI model whose provider this server is not configured for, so every review by it would fail. The problem lists `unconfigured` (the models refused) and `configured_providers` (what this server can run).',
    action:
      'Name models of a configured provider (GET /api/v1/models lists them, e.g. openai/<model>), or none: without models only human reviewers score. Or ask the operator to configure the provider.',
  },
  session_not_found: {
    when: "You have no live session with this id (it is unknown, someone else's, or already signed out).",
    action: 'List your sessions with GET /api/v1/auth/sessions and use an id from there.',
  },
  signup_closed: {
    when: 'This server does not take new sign-ups (SIGNUP_MODE=closed).',
    action: "Ask the operator for an account (the problem's `contact` says how to reach them, when the operator gave one); retrying does not help.",
  },
  invite_code_invalid: {
    when: 'Sign-up here needs an invite code, and the one sent is missing, unknown, revoked, expired or used up.',
    action: 'Ask an administrator of this server for an invite code, then sign up again with it in `invite_code` (an agent: POST /api/v1/agents/signup).',
  },
  invalid_credentials: {
    when: 'The e-mail address and password do not match an account.',
    action: 'Check both and try again; repeated failures lock sign-in for a while (429). Forgot it? POST /api/v1/auth/password-reset.',
  },
  account_unconfirmed: {
    when: "The account was made by an agent's sign-up while this server confirms e-mail addresses, and its owner has not opened the confirmation link mailed to the address yet (or the link expired). Until then its key works only for GET /api/v1/auth/status and its own rotation or revocation.",
    action: `Ask the owner of the address to open the link in the mail (the mail names the key's prefix); learn the moment it happens with GET /api/v1/auth/status?wait=${LONG_POLL_MAX_SECONDS} (a long-poll with the same key: \`awaiting_confirmation\` turns false), then go on. Link expired: sign up again with POST /api/v1/agents/signup.`,
  },
  account_disabled: {
    when: 'An administrator has disabled this account: it cannot sign in, and its keys and sessions do not work.',
    action: 'Contact the operator of this server.',
  },
  csrf_failed: {
    when: "A cookie-authenticated request that changes something came from another origin, or without the session's X-CSRF-Token header.",
    action: `From the web app, send the csrf_token of GET /api/v1/auth/session as X-CSRF-Token. Agents send no cookies and need neither Origin nor a CSRF token: they send "Authorization: Bearer <API key>". ${HOW_TO_GET_A_KEY}`,
  },
  reset_token_invalid: {
    when: 'This password-reset link is unknown, already used, replaced by a newer one, or expired.',
    action: 'Ask for a new link with POST /api/v1/auth/password-reset.',
  },
  signup_token_invalid: {
    when: 'This sign-up confirmation link is unknown, already used, or expired.',
    action: 'Sign up again with POST /api/v1/auth/signup to get a new link, or sign in if the account was made.',
  },
  method_not_allowed: {
    when: 'The path exists but does not take this HTTP method (the Allow header lists those it takes), or the method is not one this API knows.',
    action: 'Use one of the methods in the Allow header, as the OpenAPI document lists them for the path.',
  },
  registration_closed: {
    when: 'The event does not take registrations now: it is past its registration deadline, closed by the organizer, or not open yet.',
    action: "Do not retry; the problem's detail says why it is closed. Look for another event: GET /api/v1/events lists them with their deadlines.",
  },
  already_registered: {
    when: 'Your account already has a registration for this event (pending or approved). The problem carries its `id` and `registration_status`.',
    action:
      'Read it with GET /api/v1/events/{id}/my-registration instead of registering again. Only a rejected registration may be sent again (a re-application, until the registration deadline).',
  },
  registration_rejected_final: {
    when: 'The organizer rejected your registration as final: this event takes no re-application from your team. The problem carries its `id`.',
    action: 'Do not retry; the reason, if the organizer gave one, is in GET /api/v1/events/{id}/my-registration.',
  },
  team_name_taken: {
    when: 'Another team of this event already uses this name.',
    action: 'Register again with another team_name.',
  },
  already_in_team: {
    when: "You are already in a team of this event (this one or another): a person is in at most one team per event. The problem carries that team's `registration_id`.",
    action:
      'Read your team with GET /api/v1/events/{id}/team. To change teams, leave yours first (POST /api/v1/events/{id}/team/leave; a leader hands over or withdraws first).',
  },
  team_full: {
    when: "The team already has the event's maximum number of members (registration_config.max_team_size, the leader counted).",
    action: 'Do not retry: ask the leader to make room, or join another team.',
  },
  team_too_small: {
    when: "The team has fewer members than the event's minimum (registration_config.min_team_size, the leader counted), so it cannot submit yet. The problem says how many more are needed (`members_needed`).",
    action: 'Invite more members (POST /api/v1/events/{id}/team/invitations) and submit once they have joined.',
  },
  leader_must_hand_over: {
    when: 'The team leader tried to leave (or to be removed). A team always has a leader.',
    action:
      'Hand leadership to another member first (POST /api/v1/events/{id}/team/leader), then leave; alone in the team, withdraw it instead (DELETE /api/v1/events/{id}/team).',
  },
  registration_not_pending: {
    when: 'The team name can only be changed while the registration is pending (before the organizer decides).',
    action: 'Keep the name, or ask the organizer (GET /api/v1/events/{id}/my-registration shows the registration as it stands).',
  },
  not_team_leader: {
    when: 'Only the team leader may do this (invite, revoke a code, remove a member, hand over, rename, withdraw).',
    action: 'Ask your team leader (GET /api/v1/events/{id}/team names them). Retrying does not help.',
  },
  join_code_invalid: {
    when: 'No open invitation of this event has this join code: it is unknown, revoked, expired, or for another event (or its team withdrew).',
    action: 'Ask the team leader for a new join code; do not retry this one.',
  },
  team_member_not_found: {
    when: 'The user id names nobody in your team.',
    action: 'Use a user_id from the members of GET /api/v1/events/{id}/team.',
  },
  team_not_found: {
    when: 'No team of this event with this registration id takes join requests (unknown, withdrawn or rejected).',
    action: 'Pick a team from the `teams` of GET /api/v1/events/{id}/team-finder.',
  },
  join_request_not_found: {
    when: 'No join request with this id is yours or to the team you lead in this event.',
    action: 'Use a request id from `my_requests` or `team_requests` of GET /api/v1/events/{id}/team-finder.',
  },
  join_request_exists: {
    when: 'You already have a pending request to this team: one pending request per person per team.',
    action: 'Wait for the leader to answer (you get a mail), or withdraw it (PATCH …/join-requests/{request_id} with status withdrawn) first.',
  },
  join_request_not_pending: {
    when: 'The join request was accepted, declined or withdrawn already; the problem carries its `request_status`.',
    action: 'Do not retry. Read the requests with GET /api/v1/events/{id}/team-finder; a declined person may send a new request.',
  },
  submission_closed: {
    when: 'The event does not take submissions now (past its submission deadline, or judging has begun).',
    action:
      'Do not retry; the project as last submitted is the one judged. Follow the event to its results: GET /api/v1/events/{id}/result (409 results_not_published until then).',
  },
  announcement_not_found: {
    when: 'No announcement with this id exists in this event.',
    action: 'Use an id from GET /api/v1/events/{id}/announcements.',
  },
  announcement_already_published: {
    when: 'The announcement has gone out (or is going out now): a sent announcement cannot be cancelled or unsent.',
    action: 'Do not retry. To correct it, post a new announcement (POST /api/v1/events/{id}/announcements) to the same segment.',
  },
  results_not_published: {
    when: 'The ranking of the event is not published yet (or never will be: the event is cancelled).',
    action: `The problem's \`event_status\` says where the event stands; results come after judging. Ask again after the \`Retry-After\` seconds (${POLL_MAX_SECONDS}); a cancelled event never publishes (no Retry-After): stop.`,
  },
  bundle_not_available: {
    when: 'The results were published before results bundles existed: this event has no verifiable bundle (its ranking is still at GET /api/v1/events/{id}/result).',
    action: 'Do not retry; read the result instead. Only events published since bundles exist have one.',
  },
  invalid_transition: {
    when: 'The event cannot move from its current status to the one asked for.',
    action:
      "Read the event's status (GET /api/v1/events/{id}) and move it one allowed step at a time with PATCH /api/v1/events/{id} (the detail names the allowed ones).",
  },
  event_locked: {
    when: 'The event has reached a stage where this can no longer change (e.g. editing tracks after registrations, or deciding after judging began).',
    action:
      'Do not retry; the change is no longer possible for this event. GET /api/v1/events/{id} shows its status; for a later event, make the change before that stage.',
  },
  email_taken: {
    when: "Another account already uses this e-mail address (for an agent's sign-up: also an account still waiting for its owner to confirm it, while its link works).",
    action:
      'Use another address, or the existing account: sign in with it (POST /api/v1/auth/signin, or on the web; forgot the password: POST /api/v1/auth/password-reset) and create a key at /api-keys.',
  },
  last_admin: {
    when: 'The change (a new role, or disabling the account) would leave the site without an active administrator.',
    action: 'Make another account an administrator first (PATCH /api/v1/admin/users/{id} with role "admin"), then retry.',
  },
  not_judging: {
    when: 'This needs the event to be in judging, and it is not.',
    action: 'Move the event to judging first (PATCH /api/v1/events/{id} with status "judging").',
  },
  results_already_published: {
    when: 'The results of the event are published and frozen; nothing that changes the ranking is possible any more.',
    action: 'Do not retry; read the published result with GET /api/v1/events/{id}/result.',
  },
  no_reviewers: {
    when: 'Assigning reviewers automatically needs reviewers, and no one has joined this event as a reviewer yet (invitations not yet accepted do not count).',
    action:
      'Invite reviewers first (POST /api/v1/events/{id}/reviewers with {"email": …}); once they have accepted (GET /api/v1/events/{id}/reviewers lists them), assign again.',
  },
  invitation_used: {
    when: 'The invitation has already been accepted.',
    action: 'Use the API key you received when accepting; ask the organizer for a new invitation if it is lost.',
  },
  invitation_expired: {
    when: 'The invitation is past its expiry.',
    action: 'Ask the organizer to invite you again.',
  },
  invitation_closed: {
    when: 'The event the invitation is for has ended or was cancelled, or the invitation was withdrawn.',
    action: 'Nothing to do: the invitation cannot be used any more.',
  },
  request_timeout: {
    when: "The request (headers or body) did not arrive completely within the server's time limit.",
    action: 'Retry on a faster connection, and send the whole body at once.',
  },
  uri_too_long: {
    when: 'The URL, or one segment of its path, is longer than the server accepts.',
    action: 'Use the ids the API gave you; they are far shorter.',
  },
  unscored_projects: {
    when: 'Some judged projects have no score at all yet (no succeeded AI review, no human review), so publishing would rank them last with 0. `detail` says why for this event: AI reviews still running or failed, or (an event without models) no human review.',
    action:
      'With models: wait for the AI reviews (GET /api/v1/events/{id}/reviews), re-run failed ones (POST /api/v1/events/{id}/reviews/rerun). Without models only human reviewers score: invite reviewers (POST /api/v1/events/{id}/reviewers) and have them review, or add a model before judging. Or publish anyway with {"force": true}.',
  },
  unfinished_judging: {
    when: 'Human judging is unfinished: projects have fewer human reviews than reviewers assigned (or, when every reviewer reviews every project, some project has no human review at all).',
    action:
      'Remind the reviewers and wait (the numbers are in the answer: projects_unfinished, reviewers_unfinished, open_assignments), or publish anyway with {"force": true}.',
  },
  not_assigned_mode: {
    when: 'The event reviews in "every" mode (each reviewer reviews every project), so projects cannot be assigned by hand.',
    action: 'Switch to assigned reviewing first: POST /api/v1/events/{id}/assignments/auto with {"per_project": k}.',
  },
  project_not_assigned: {
    when: 'The event assigns reviewers to projects, and this project is not one of yours.',
    action: 'Review the projects listed by GET /api/v1/events/{id}/review-assignments; ask the organizer if you should review this one.',
  },
  idempotency_key_reused: {
    when: 'This Idempotency-Key was already used by you with a different request body.',
    action: 'Use a new key for a new request; reuse a key only to retry the very same request.',
  },
  idempotency_key_in_use: {
    when: 'A request with this Idempotency-Key is still being processed.',
    action: 'Retry the same request after a short pause; you will get its stored answer.',
  },
  conflict_of_interest: {
    when: "You may not review this project (it is your own team's, or you are otherwise involved).",
    action: 'Skip it; it is not counted against you.',
  },
  payload_too_large: {
    when: 'The request body is larger than the server accepts.',
    action: "Send less: shorten long texts; the OpenAPI document lists each field's limit.",
  },
  unsupported_media_type: {
    when: 'The body is not sent as JSON.',
    action: 'Send the body with Content-Type: application/json.',
  },
  validation_failed: {
    when: "The request is well-formed JSON but some values are wrong. The problem's `errors` lists each field with what is wrong with it.",
    action: 'Fix the fields named in `errors` and send again; the OpenAPI document lists every field with its limits.',
  },
  no_open_reviews: {
    when: "The reviewer has no open reviews in this event: they have reviewed every judged project they may review (their own team's is left out), so a reminder would have nothing to say.",
    action: "Nothing to do; GET /api/v1/events/{id}/reviewers shows each reviewer's `open_reviews`.",
  },
  reminder_too_soon: {
    when: 'This reviewer was reminded of this event less than 24 hours ago: a reviewer gets at most one reminder a day. The problem carries `last_sent_at` and `next_allowed_at`, and `Retry-After` says how many seconds are left.',
    action: 'Remind them again at `next_allowed_at` (not before); the earlier reminder has been sent.',
  },
  rate_limited: {
    when: 'Too many requests from your key (or, without one, your address) in the current window, or too many open connections.',
    action: 'Wait the number of seconds in the Retry-After header, then go on; watch RateLimit-Remaining to stay under the limit.',
  },
  internal_error: {
    when: 'Something failed on the server. It has been logged.',
    action: 'Retry later with backoff; if it persists, tell the operator (quote the time and the request).',
  },
  service_unavailable: {
    when: 'A service the request needs (e.g. sending e-mail) is not available now.',
    action: 'Retry later with backoff.',
  },
  database_unavailable: {
    when: "The server could not reach its database, or the database did not answer in time (it is restarting, overloaded or cut off), or the request did not finish within the server's request deadline because of it. The request may or may not have taken effect if it was a write.",
    action:
      'Wait the number of seconds in the Retry-After header and send the same request again (with the same Idempotency-Key for a write, so it happens once).',
  },
  headers_too_large: {
    when: 'The request headers are larger than the server accepts.',
    action: 'Send fewer or shorter headers (cookies included).',
  },
};

export interface ProblemType {
  code: ErrorCode;
  type: string;
  status: number;
  title: string;
  when: string;
  action: string;
}

/** Every code, in the order of the error vocabulary. */
export function problemTypes(siteUrl: string): ProblemType[] {
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).map((code) => problemType(code, siteUrl));
}

export function problemType(code: ErrorCode, siteUrl: string): ProblemType {
  return { code, type: `${siteUrl}/problems/${code}`, status: ERROR_STATUS[code], title: titleOf(code), ...ERROR_CATALOG[code] };
}

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_STATUS, value);
}
