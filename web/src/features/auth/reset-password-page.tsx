import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearch } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem, post } from '../../lib/api';
import { Button } from '../../ui/controls';
import { Field } from '../../ui/form';
import { ProblemAlert } from '../../ui/states';
import { useSite } from '../../lib/site';
import { AuthCard } from './auth-shell';
import { passwordProblem } from './logic';
import { messages } from './messages';

export default function ResetPasswordPage() {
  const { t } = useT('auth', messages);
  const token = new URLSearchParams(useSearch()).get('token');
  const site = useSite();
  const minLength = site.data?.password_min_length ?? 8;
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [checks, setChecks] = useState<{ password?: string; confirm?: string }>({});
  const reset = useMutation({ mutationFn: (body: { token: string; password: string }) => post('/auth/password-reset/confirm', { body }) });

  const problem = reset.error instanceof ApiProblem ? reset.error : null;
  if (!token || problem?.code === 'reset_token_invalid') {
    return (
      <AuthCard title={t('reset.invalidTitle')}>
        <div className="auth-done">
          <p>{token ? t('reset.invalid') : t('reset.missing')}</p>
          <Link className="btn btn-primary" href="/forgot-password">
            {t('reset.askAgain')}
          </Link>
        </div>
      </AuthCard>
    );
  }
  if (reset.isSuccess) {
    return (
      <AuthCard title={t('reset.doneTitle')}>
        <div className="auth-done" role="status">
          <p>{t('reset.done')}</p>
          <Link className="btn btn-primary" href="/signin">
            {t('reset.signIn')}
          </Link>
        </div>
      </AuthCard>
    );
  }

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found = passwordProblem(password, minLength, confirm);
    setChecks(found === 'tooShort' ? { password: t('checks.tooShort', { count: minLength }) } : found === 'mismatch' ? { confirm: t('checks.mismatch') } : {});
    if (!found) reset.mutate({ token, password });
  };
  const fieldError = problem?.fieldError('password');
  return (
    <AuthCard title={t('reset.title')}>
      <form onSubmit={onSubmit} noValidate>
        {reset.error && !fieldError ? <ProblemAlert error={reset.error} /> : null}
        <Field label={t('fields.newPassword')} hint={t('fields.passwordHint', { count: minLength })} error={checks.password ?? fieldError}>
          <input
            type="password"
            name="password"
            autoComplete="new-password"
            required
            minLength={minLength}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        <Field label={t('fields.confirmPassword')} error={checks.confirm}>
          <input type="password" name="confirm" autoComplete="new-password" required value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        </Field>
        <div className="form-actions">
          <Button type="submit" busy={reset.isPending}>
            {t('reset.submit')}
          </Button>
        </div>
      </form>
    </AuthCard>
  );
}
