import type { Generated, Selectable } from 'kysely';

export type Role = 'user' | 'organizer' | 'admin';

/** What an API key may do: everything its user may, or only the reviewer routes (invitation-made keys). */
export type KeyScope = 'full' | 'review';

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string | null;
  role: Role;
  created_at: string;
  updated_at: string;
  /** Display name (web sign-up); optional. */
  name: Generated<string | null>;
  /** Set when an admin disables the account: its keys and sessions stop working. */
  disabled_at: Generated<string | null>;
  /** Language of the person's mails: 'en' | 'zh'; null = en (0216). */
  language: Generated<string | null>;
  /** IANA time zone times in mails are shown in; null = UTC (0216). */
  time_zone: Generated<string | null>;
  /** Notification mail switches, 1 = send (0216). */
  notify_registration: Generated<number>;
  notify_team: Generated<number>;
  notify_results: Generated<number>;
  /** Set while an agent's account waits for its owner to confirm the address (POST /agents/signup with confirmation on; 0231). */
  unconfirmed_since: Generated<string | null>;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
  user_agent: string | null;
  ip: string | null;
}

export interface InviteCodesTable {
  id: string;
  code_hash: string;
  prefix: string;
  note: string | null;
  max_uses: number;
  uses: Generated<number>;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
  created_by: string | null;
}

export interface PasswordResetsTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A sign-up waiting for its e-mail confirmation (open and invite sign-up with SMTP): the account is made at the link. */
export interface SignupRequestsTable {
  id: string;
  email: string;
  password_hash: string;
  name: string | null;
  /** Mail language asked for at sign-up ('en' | 'zh'), null if none (0216). */
  language: Generated<string | null>;
  /** sha256 of the invite code given at sign-up (invite mode), claimed when the link is confirmed; else null. */
  invite_code_hash: string | null;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** The unconfirmed account the link confirms (an agent's sign-up); null: the link makes the account (0231). */
  user_id: Generated<string | null>;
  /** IANA time zone the browser sent at sign-up, for the account it makes (0238); null: none. */
  time_zone: Generated<string | null>;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  scope: Generated<KeyScope>;
}

export type UserRow = Selectable<UsersTable>;
/** A new account's person settings: language and zone unset (en, UTC), every mail on. */
export const DEFAULT_SETTINGS = { language: null, time_zone: null, notify_registration: 1, notify_team: 1, notify_results: 1 } as const;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type SessionRow = Selectable<SessionsTable>;
export type InviteCodeRow = Selectable<InviteCodesTable>;
