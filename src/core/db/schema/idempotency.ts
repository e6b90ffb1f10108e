import type { Selectable } from 'kysely';

/** One Idempotency-Key use: claimed while its request runs, then the stored answer replayed. */
export interface IdempotencyKeysTable {
  user_id: string;
  /** Method and route pattern, e.g. `POST /api/v1/events/:id/register`. */
  route: string;
  idem_key: string;
  /** SHA-256 of the method, the concrete path and the canonical JSON of the body. */
  fingerprint: string;
  state: 'running' | 'done';
  /** Who holds a running claim; the answer is stored only by its holder. */
  lock_token: string;
  /** A running claim past this instant is abandoned (process crash) and may be taken over. */
  locked_until: string;
  expires_at: string;
  created_at: string;
  response_status: number | null;
  /** JSON object of the replayed headers (content-type, location). */
  response_headers: string | null;
  response_body: string | null;
}

export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;
