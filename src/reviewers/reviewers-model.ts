import type { InvitationRow, ReviewRow } from '../core/db/schema.js';

export type InvitationStatus = 'pending' | 'accepted' | 'expired';

/** An invitation is accepted once used; otherwise pending until it expires (at expires_at exactly). */
export function invitationStatus(inv: Pick<InvitationRow, 'accepted_at' | 'expires_at'>, now: Date): InvitationStatus {
  if (inv.accepted_at) return 'accepted';
  return Date.parse(inv.expires_at) <= now.getTime() ? 'expired' : 'pending';
}

/** An invitation as organizers see it: never the token (only its hash is stored anyway). */
export function invitationForApi(inv: InvitationRow, now: Date) {
  return {
    id: inv.id,
    event_id: inv.event_id,
    email: inv.email,
    name: inv.name,
    status: invitationStatus(inv, now),
    expires_at: inv.expires_at,
    created_at: inv.created_at,
    accepted_at: inv.accepted_at,
  };
}

/** A human review as its reviewer sees it: `comment` is stored in the reviews table's `summary`. */
export function reviewForApi(r: ReviewRow) {
  return {
    id: r.id,
    event_id: r.event_id,
    project_id: r.project_id,
    reviewer_id: r.reviewer,
    scores: (r.scores ? JSON.parse(r.scores) : {}) as Record<string, number>,
    comment: r.summary,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}
