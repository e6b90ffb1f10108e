import type { Migration } from 'kysely';
import { migration as m0001_core } from './0001_core.js';
import { migration as m0002_judging } from './0002_judging.js';
import { migration as m0004_results_ranking_index } from './0004_results_ranking_index.js';
import { migration as m0102_api_key_scope } from './0102_api_key_scope.js';
import { migration as m0103_event_status_changed_at } from './0103_event_status_changed_at.js';
import { migration as m0105_organizer_list_indexes } from './0105_organizer_list_indexes.js';
import { migration as m0106_standings } from './0106_standings.js';
import { migration as m0107_events_public_pages_index } from './0107_events_public_pages_index.js';
import { migration as m0109_idempotency_keys } from './0109_idempotency_keys.js';
import { migration as m0110_events_status_boundaries } from './0110_events_status_boundaries.js';
import { migration as m0201_sessions } from './0201_sessions.js';
import { migration as m0202_invite_codes_password_resets } from './0202_invite_codes_password_resets.js';
import { migration as m0203_standings_stale_walk } from './0203_standings_stale_walk.js';
import { migration as m0204_event_time_zone } from './0204_event_time_zone.js';
import { migration as m0209_registration_reapply } from './0209_registration_reapply.js';
import { migration as m0210_webhooks } from './0210_webhooks.js';
import { migration as m0212_signup_requests } from './0212_signup_requests.js';
import { migration as m0213_event_co_organizer_emails } from './0213_event_co_organizer_emails.js';
import { migration as m0214_teams } from './0214_teams.js';
import { migration as m0215_mail_queue } from './0215_mail_queue.js';
import { migration as m0216_user_settings } from './0216_user_settings.js';
import { migration as m0217_feedback_release } from './0217_feedback_release.js';
import { migration as m0220_gallery } from './0220_gallery.js';
import { migration as m0221_voting } from './0221_voting.js';
import { migration as m0222_assignments } from './0222_assignments.js';
import { migration as m0223_normalization } from './0223_normalization.js';
import { migration as m0224_reviewer_reminders } from './0224_reviewer_reminders.js';
import { migration as m0225_event_media } from './0225_event_media.js';
import { migration as m0226_project_flags } from './0226_project_flags.js';
import { migration as m0227_audit_log } from './0227_audit_log.js';
import { migration as m0228_result_bundles } from './0228_result_bundles.js';
import { migration as m0229_build_window } from './0229_build_window.js';
import { migration as m0230_build_window_groups } from './0230_build_window_groups.js';
import { migration as m0231_agent_signup } from './0231_agent_signup.js';
import { migration as m0232_result_signing_keys } from './0232_result_signing_keys.js';
import { migration as m0234_former_team_members } from './0234_former_team_members.js';
import { migration as m0235_project_showcase } from './0235_project_showcase.js';
import { migration as m0238_reader_zone } from './0238_reader_zone.js';
import { migration as m0239_team_finder } from './0239_team_finder.js';
import { migration as m0240_announcements } from './0240_announcements.js';

/**
 * Every migration, in name order: one file each in this folder, named by the migration's name
 * (the name Kysely records in `kysely_migration`, so it never changes once shipped). Adding a
 * migration is adding its file and its line here; test/unit/migrations-list.test.ts fails when
 * the folder and this list differ.
 */
export const MIGRATIONS: ReadonlyArray<readonly [name: string, migration: Migration]> = [
  ['0001_core', m0001_core],
  ['0002_judging', m0002_judging],
  ['0004_results_ranking_index', m0004_results_ranking_index],
  ['0102_api_key_scope', m0102_api_key_scope],
  ['0103_event_status_changed_at', m0103_event_status_changed_at],
  ['0105_organizer_list_indexes', m0105_organizer_list_indexes],
  ['0106_standings', m0106_standings],
  ['0107_events_public_pages_index', m0107_events_public_pages_index],
  ['0109_idempotency_keys', m0109_idempotency_keys],
  ['0110_events_status_boundaries', m0110_events_status_boundaries],
  ['0201_sessions', m0201_sessions],
  ['0202_invite_codes_password_resets', m0202_invite_codes_password_resets],
  ['0203_standings_stale_walk', m0203_standings_stale_walk],
  ['0204_event_time_zone', m0204_event_time_zone],
  ['0209_registration_reapply', m0209_registration_reapply],
  ['0210_webhooks', m0210_webhooks],
  ['0212_signup_requests', m0212_signup_requests],
  ['0213_event_co_organizer_emails', m0213_event_co_organizer_emails],
  ['0214_teams', m0214_teams],
  ['0215_mail_queue', m0215_mail_queue],
  ['0216_user_settings', m0216_user_settings],
  ['0217_feedback_release', m0217_feedback_release],
  ['0220_gallery', m0220_gallery],
  ['0221_voting', m0221_voting],
  ['0222_assignments', m0222_assignments],
  ['0223_normalization', m0223_normalization],
  ['0224_reviewer_reminders', m0224_reviewer_reminders],
  ['0225_event_media', m0225_event_media],
  ['0226_project_flags', m0226_project_flags],
  ['0227_audit_log', m0227_audit_log],
  ['0228_result_bundles', m0228_result_bundles],
  ['0229_build_window', m0229_build_window],
  ['0230_build_window_groups', m0230_build_window_groups],
  ['0231_agent_signup', m0231_agent_signup],
  ['0232_result_signing_keys', m0232_result_signing_keys],
  ['0234_former_team_members', m0234_former_team_members],
  ['0235_project_showcase', m0235_project_showcase],
  ['0238_reader_zone', m0238_reader_zone],
  ['0239_team_finder', m0239_team_finder],
  ['0240_announcements', m0240_announcements],
];
