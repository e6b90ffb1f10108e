import type { ReactNode } from 'react';
import { problemCodeText, useT } from '../i18n';
import { ApiProblem, NetworkError } from '../lib/api';

/** A sentence for any error a page can meet: never a stack trace or raw JSON. */
export function useProblemText() {
  const { t } = useT();
  return (error: unknown): string => {
    if (error instanceof NetworkError) return t('problems.network');
    if (error instanceof ApiProblem) {
      if (error.code === 'rate_limited') return t('problems.rate_limited', { seconds: error.retryAfter ?? 60 });
      if (error.status >= 500) return t(error.status === 503 ? 'problems.service_unavailable' : 'problems.internal_error');
      if (error.code === 'csrf_failed') return t('problems.csrf_failed');
      // The server's own sentence is written for people and says what to change, in English: a page
      // in another language says it with its own words for the code.
      return problemCodeText(error.code, error.detail) || t('problems.fallback');
    }
    return t('problems.fallback');
  };
}

export function Loading({ label }: { label?: string }) {
  const { t } = useT();
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label ?? t('states.loading')}</span>
    </div>
  );
}

export function EmptyState({ title, children, action }: { title?: string; children?: ReactNode; action?: ReactNode }) {
  const { t } = useT();
  return (
    <div className="state state-empty">
      <p className="state-title">{title ?? t('states.empty')}</p>
      {children ? <div className="muted">{children}</div> : null}
      {action ? <div className="state-action">{action}</div> : null}
    </div>
  );
}

export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useT();
  const text = useProblemText();
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">{t('states.errorTitle')}</p>
      <p>{text(error)}</p>
      {onRetry ? (
        <button type="button" className="btn btn-secondary" onClick={onRetry}>
          {t('actions.retry')}
        </button>
      ) : null}
    </div>
  );
}

/** A form-level problem (the part that does not belong to one field). */
export function ProblemAlert({ error }: { error: unknown }) {
  const text = useProblemText();
  if (!error) return null;
  return (
    <div className="alert alert-error" role="alert">
      {text(error)}
    </div>
  );
}

export function NotFound() {
  const { t } = useT();
  return (
    <section className="state state-block" aria-labelledby="nf-title">
      <h1 id="nf-title">{t('states.notFoundTitle')}</h1>
      <p>{t('states.notFound')}</p>
      <p>
        <a href="/">{t('states.home')}</a>
      </p>
    </section>
  );
}
