import type { KeyScope, Role } from './db/schema.js';

/**
 * Who is calling, as resolved from a valid API key or browser session. The auth hook (core/http)
 * sets it on the request; accounts resolves it; every domain service takes it to decide what the
 * caller may do.
 */
export interface Principal {
  userId: string;
  email: string;
  /** The display name (null: none set; pages and mails then show the address's local part). Cached with the principal. */
  name: string | null;
  role: Role;
  /** The key id, or the session id (`ses_…`) for a session: the rate-limit bucket. */
  keyId: string;
  /** 'review' keys may call the reviewer routes only; the auth hook enforces it. Sessions are 'full'. */
  scope: KeyScope;
  /** How the caller authenticated; absent means an API key. */
  via?: 'key' | 'session';
  /** For sessions: the session id and its CSRF token (checked on unsafe methods). */
  sessionId?: string;
  csrfToken?: string;
  /**
   * An agent's account whose owner has not confirmed the address yet: the auth hook refuses it
   * (`account_unconfirmed`) everywhere but the routes that declare `unconfirmedAllowed`.
   */
  unconfirmed?: boolean;
}
