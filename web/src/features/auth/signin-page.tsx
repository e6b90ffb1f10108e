import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem, post } from '../../lib/api';
import { safeNext, useSession, useSessionUpdate } from '../../lib/session';
import { Button } from '../../ui/controls';
import { Field } from '../../ui/form';
import { ProblemAlert } from '../../ui/states';
import { AuthCard, useCountdown, type Wait } from './auth-shell';
import { afterSignIn, formatWait } from './logic';
import { messages } from './messages';

export default function SignInPage() {
  const { t } = useT('auth', messages);
  const next = new URLSearchParams(useSearch()).get('next');
  const { user } = useSession();
  const { signedIn } = useSessionUpdate();
  const [, navigate] = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [checks, setChecks] = useState<{ email?: string; password?: string }>({});
  const [retryWait, setRetryWait] = useState<Wait | null>(null);
  const wait = useCountdown(retryWait);

  const signIn = useMutation({
    mutationFn: (body: { email: string; password: string }) => post('/auth/signin', { body }),
    onSuccess: (answer) => {
      signedIn(answer);
      navigate(afterSignIn(next, answer.user.role, safeNext), { replace: true });
    },
    onError: (err) => {
      if (err instanceof ApiProblem && err.status === 429) setRetryWait({ seconds: err.retryAfter ?? 60 });
    },
  });

  // Someone already signed in (another tab, or the back button) goes where sign-in would send them.
  if (user && !signIn.isPending && !signIn.isSuccess) return <Redirect to={afterSignIn(next, user.role, safeNext)} replace />;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found = { email: email.trim() ? undefined : t('checks.emailRequired'), password: password ? undefined : t('checks.passwordRequired') };
    setChecks(found);
    if (found.email || found.password || wait > 0) return;
    signIn.mutate({ email: email.trim(), password });
  };

  const problem = signIn.error instanceof ApiProblem ? signIn.error : null;
  let formError: React.ReactNode = null;
  if (problem?.code === 'invalid_credentials')
    formError = (
      <div className="alert alert-error" role="alert">
        {t('signin.wrong')}
      </div>
    );
  else if (problem?.code === 'account_disabled')
    formError = (
      <div className="alert alert-error" role="alert">
        {t('signin.disabled')}
      </div>
    );
  else if (problem?.status === 429)
    formError = (
      <div className={wait > 0 ? 'alert alert-warn' : 'alert alert-info'} role="status">
        {wait > 0 ? t('signin.wait', { time: formatWait(wait) }) : t('signin.waitDone')}
      </div>
    );
  else if (signIn.error && !(problem?.code === 'validation_failed' && problem.errors.length > 0)) formError = <ProblemAlert error={signIn.error} />;

  const nextQuery = next ? `?next=${encodeURIComponent(next)}` : '';
  return (
    <AuthCard
      title={t('signin.title')}
      intro={t('signin.intro')}
      footer={
        <p>
          {t('signin.noAccount')} <Link href={`/signup${nextQuery}`}>{t('signin.signUp')}</Link>
        </p>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        {formError}
        <Field label={t('fields.email')} error={checks.email ?? problem?.fieldError('email')}>
          <input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field label={t('fields.password')} error={checks.password ?? problem?.fieldError('password')}>
          <input type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        <p className="auth-links">
          <Link href="/forgot-password">{t('signin.forgot')}</Link>
        </p>
        <div className="form-actions">
          <Button type="submit" busy={signIn.isPending} disabled={wait > 0}>
            {t('signin.submit')}
          </Button>
        </div>
      </form>
    </AuthCard>
  );
}
