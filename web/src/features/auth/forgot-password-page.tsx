import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem, post } from '../../lib/api';
import { Button } from '../../ui/controls';
import { Field } from '../../ui/form';
import { ProblemAlert } from '../../ui/states';
import { AuthCard } from './auth-shell';
import { messages } from './messages';

export default function ForgotPasswordPage() {
  const { t } = useT('auth', messages);
  const [email, setEmail] = useState('');
  const [check, setCheck] = useState<string | undefined>();
  const send = useMutation({ mutationFn: (address: string) => post('/auth/password-reset', { body: { email: address } }) });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const address = email.trim();
    setCheck(address ? undefined : t('checks.emailRequired'));
    if (address) send.mutate(address);
  };

  const footer = (
    <p>
      <Link href="/signin">{t('forgot.back')}</Link>
    </p>
  );
  if (send.isSuccess) {
    return (
      <AuthCard title={t('forgot.sentTitle')} footer={footer}>
        <div className="auth-done" role="status">
          <p>{t('forgot.sent', { email: send.variables })}</p>
          <Button variant="secondary" onClick={() => send.reset()}>
            {t('forgot.again')}
          </Button>
        </div>
      </AuthCard>
    );
  }
  const problem = send.error instanceof ApiProblem ? send.error : null;
  const fieldError = problem?.fieldError('email');
  return (
    <AuthCard title={t('forgot.title')} intro={t('forgot.intro')} footer={footer}>
      <form onSubmit={onSubmit} noValidate>
        {send.error && !fieldError ? <ProblemAlert error={send.error} /> : null}
        <Field label={t('fields.email')} error={check ?? fieldError}>
          <input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <div className="form-actions">
          <Button type="submit" busy={send.isPending}>
            {t('forgot.submit')}
          </Button>
        </div>
      </form>
    </AuthCard>
  );
}
