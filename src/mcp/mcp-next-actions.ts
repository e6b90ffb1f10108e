import type { ErrorCode } from '../core/errors.js';
import { LONG_POLL_MAX_SECONDS } from '../core/wait-policy.js';

/**
 * What an MCP client does next after a refused call, where the REST problem page's advice names
 * REST routes: the tool to call instead. Other codes take the problem page's `action` as is.
 */
export const MCP_NEXT_ACTIONS: Partial<Record<ErrorCode, string>> = {
  not_registered:
    'Register first with register_team (read get_registration_form for the tracks and fields), or join a team with join_team; submit once approved.',
  registration_not_approved: `Wait for the decision with get_my_registration (wait: ${LONG_POLL_MAX_SECONDS}), calling again while pending; submit once approved. A rejection carries the reason.`,
  event_not_found: 'Use an event id from list_events; do not call again with this one.',
  registration_not_found: 'Use a registration id from list_registrations.',
  already_registered: 'Read your registration with get_my_registration instead of registering again.',
  results_not_published:
    'Call get_result again after retry_after_seconds; event_status says where the event stands (results come after judging). A cancelled event never publishes: stop.',
  invalid_transition: 'Read the event with get_event and move it one allowed step at a time (the detail names what is allowed).',
  webhook_not_found: 'Use a webhook id from list_webhooks.',
  already_in_team: 'Read your team with get_team; to change teams, leave_team first (a leader hands over or withdraws first).',
  not_team_leader: 'Only the team leader may do this; get_team names them.',
  join_code_invalid: 'Ask the team leader for a new join code (create_team_invitation); do not retry this one.',
  leader_must_hand_over: 'Hand over with hand_over_team first, then leave_team; alone in the team, use withdraw_registration.',
  team_too_small: 'Invite more members with create_team_invitation; submit_project once they have joined.',
  team_member_not_found: 'Use a user_id from the members of get_team.',
  webhook_delivery_not_found: 'Use a delivery id from list_webhook_deliveries.',
  not_assigned_mode: 'Switch to assigned reviewing first with auto_assign_reviewers (per_project), then set_assignment.',
  project_not_assigned: 'Review the projects get_review_queue lists; ask the organizer if you should review this one.',
  no_open_reviews: "Nothing to do; list_reviewers shows each reviewer's open_reviews.",
};
