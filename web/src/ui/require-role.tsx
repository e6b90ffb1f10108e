import type { ReactNode } from 'react';
import { Redirect, useLocation } from 'wouter';
import { useT } from '../i18n';
import { hasRole, useSession, type Role } from '../lib/session';
import { ErrorState, Loading } from './states';

/** Shows `children` to signed-in people with at least `role`; sends others to sign in, or says no. */
export function RequireRole({ role = 'user', children }: { role?: Role; children: ReactNode }) {
  const { user, loading, error, refetch } = useSession();
  const [location] = useLocation();
  const { t } = useT();
  if (loading) return <Loading />;
  if (error) return <ErrorState error={error} onRetry={() => void refetch()} />;
  if (!user) return <Redirect to={`/signin?next=${encodeURIComponent(location + window.location.search)}`} replace />;
  if (!hasRole(user, role)) {
    return (
      <section className="state state-block" aria-labelledby="forbidden-title">
        <h1 id="forbidden-title">{t('states.forbiddenTitle')}</h1>
        <p>{t('states.forbidden')}</p>
        <p>
          <a href="/">{t('states.home')}</a>
        </p>
      </section>
    );
  }
  return <>{children}</>;
}
