import { useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post, setCsrfToken, type Answer } from './api';

/** GET /auth/session: the person, the CSRF token of the cookie session, and whether a session or a key signed in. */
export type SessionInfo = Answer<'/auth/session'>;
export type SessionUser = SessionInfo['user'];
export type Role = SessionUser['role'];

export const SESSION_KEY = ['session'] as const;

/** The signed-in person, or null. Every page shares this one query. */
export function useSession() {
  const query = useQuery({
    queryKey: SESSION_KEY,
    queryFn: async (): Promise<SessionInfo | null> => {
      // GET /auth/status answers 200 for a signed-out visitor too (a 401 would be logged by the
      // browser as a failed resource on every anonymous page load).
      const status = await get('/auth/status');
      setCsrfToken(status.csrf_token);
      if (!status.signed_in || !status.user) return null;
      return { user: status.user, csrf_token: status.csrf_token, session: status.session, via: status.via ?? 'session' };
    },
    staleTime: 60_000,
    retry: false,
  });
  return { user: query.data?.user ?? null, info: query.data ?? null, loading: query.isPending, error: query.error, refetch: query.refetch };
}

/** After sign-in or sign-up: remember the answer as the session without another round trip. */
export function useSessionUpdate() {
  const client = useQueryClient();
  return {
    signedIn: (answer: { user: SessionUser; csrf_token: string | null }) => {
      setCsrfToken(answer.csrf_token);
      const optimistic: SessionInfo = { user: answer.user, csrf_token: answer.csrf_token, session: null, via: 'session' };
      client.setQueryData(SESSION_KEY, optimistic);
      void client.invalidateQueries({ queryKey: SESSION_KEY });
    },
    /** A session started by an answer that names the person only in part: ask for the whole session. */
    sessionStarted: (csrfToken: string | null) => {
      setCsrfToken(csrfToken);
      void client.invalidateQueries({ queryKey: SESSION_KEY });
    },
    signOut: async () => {
      try {
        await post('/auth/signout');
      } finally {
        setCsrfToken(null);
        client.clear();
        client.setQueryData(SESSION_KEY, null);
      }
    },
  };
}

const RANK: Record<Role, number> = { user: 0, organizer: 1, admin: 2 };

export function hasRole(user: SessionUser | null, role: Role): boolean {
  return user !== null && RANK[user.role] >= RANK[role];
}

/** Where sign-in sends a person back to: only paths of this site. */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}
