import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import { useT } from '../../i18n';
import { browserMailLanguage, browserTimeZone } from './logic';
import { ApiProblem, post, type Body } from '../../lib/api';
import { safeNext, useSession, useSessionUpdate } from '../../lib/session';
import { Button } from '../../ui/controls';
import { Field } from '../../ui/form';
import { ErrorState, Loading, ProblemAlert } from '../../ui/states';
import { useSite } from '../../lib/site';
import { AuthCard } from './auth-shell';
import { afterSignIn, passwordProblem, rememberSignupNext } from './logic';
import { messages } from './messages';

type Checks = Partial<Record<'email' | 'password' | 'invite_code', string>>;

export default function SignUpPage() {
  const { t } = useT('auth', messages);
  const site = useSite();
  const { user } = useSession();
  const search = new URLSearchParams(useSearch());
  const next = search.get('next');
  if (user) return <Redirect to={afterSignIn(next, user.role, safeNext)} replace />;
  if (site.isPending) return <Loading />;
  if (site.isError) return <ErrorState error={site.error} onRetry={() => void site.refetch()} />;
  if (site.data.signup_mode === 'closed') {
    return (
      <AuthCard title={t('signup.closedTitle')}>
        <p>{t('signup.closed')}</p>
        <p>
          {t('signup.haveAccount')} <Link href="/signin">{t('signup.signIn')}</Link>
        </p>
      </AuthCard>
    );
  }
  return (
    <SignUpForm invite={site.data.signup_mode === 'invite'} minLength={site.data.password_min_length} initialCode={search.get('code') ?? ''} next={next} />
  );
}

function SignUpForm({ invite, minLength, initialCode, next }: { invite: boolean; minLength: number; initialCode: string; next: string | null }) {
  const { t } = useT('auth', messages);
  const { signedIn } = useSessionUpdate();
  const [, navigate] = useLocation();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState(initialCode);
  const [checks, setChecks] = useState<Checks>({});

  const signUp = useMutation({
    mutationFn: (body: Body<'/auth/signup', 'post'>) => post('/auth/signup', { body }),
    onSuccess: (answer) => {
      if ('status' in answer) {
        rememberSignupNext(next);
        return;
      }
      signedIn(answer);
      navigate(afterSignIn(next, answer.user.role, safeNext), { replace: true });
    },
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found: Checks = {};
    if (!email.trim()) found.email = t('checks.emailRequired');
    if (passwordProblem(password, minLength)) found.password = t('checks.tooShort', { count: minLength });
    if (invite && !code.trim()) found.invite_code = t('checks.codeRequired');
    setChecks(found);
    if (Object.keys(found).length > 0) return;
    const body: Body<'/auth/signup', 'post'> = { email: email.trim(), password };
    if (name.trim()) body.name = name.trim();
    if (invite) body.invite_code = code.trim();
    // Mails come in the browser's language and time zone (changeable later in the account settings).
    body.language = browserMailLanguage();
    body.time_zone = browserTimeZone();
    signUp.mutate(body);
  };

  const problem = signUp.error instanceof ApiProblem ? signUp.error : null;
  const serverError = (field: string): string | undefined => {
    if (field === 'email' && problem?.code === 'email_taken') return t('signup.emailTaken');
    if (field === 'invite_code' && problem?.code === 'invite_code_invalid') return t('signup.codeInvalid');
    return problem?.fieldError(field);
  };
  const handled =
    problem &&
    (problem.code === 'email_taken' || problem.code === 'invite_code_invalid' || (problem.code === 'validation_failed' && problem.errors.length > 0));
  const nextQuery = next ? `?next=${encodeURIComponent(next)}` : '';
  const sent = signUp.data && 'status' in signUp.data ? signUp.data : null;
  if (sent) {
    return (
      <AuthCard
        title={t('signup.sentTitle')}
        footer={
          <p>
            {t('signup.haveAccount')} <Link href={`/signin${nextQuery}`}>{t('signup.signIn')}</Link>
          </p>
        }
      >
        <div className="auth-done" role="status">
          <p>{t('signup.sent', { email: sent.email })}</p>
          <Button variant="secondary" onClick={() => signUp.reset()}>
            {t('signup.again')}
          </Button>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('signup.title')}
      intro={t('signup.intro')}
      footer={
        <p>
          {t('signup.haveAccount')} <Link href={`/signin${nextQuery}`}>{t('signup.signIn')}</Link>
        </p>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        {signUp.error && !handled ? <ProblemAlert error={signUp.error} /> : null}
        {invite ? <p className="badge badge-active">{t('signup.inviteOnly')}</p> : null}
        {invite ? (
          <Field label={t('fields.inviteCode')} hint={t('fields.inviteCodeHint')} error={checks.invite_code ?? serverError('invite_code')}>
            <input type="text" name="invite_code" autoComplete="off" spellCheck={false} required value={code} onChange={(e) => setCode(e.target.value)} />
          </Field>
        ) : null}
        <Field label={t('fields.email')} error={checks.email ?? serverError('email')}>
          <input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field label={t('fields.name')} hint={t('fields.nameHint')} error={serverError('name')}>
          <input type="text" name="name" autoComplete="name" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label={t('fields.password')} hint={t('fields.passwordHint', { count: minLength })} error={checks.password ?? serverError('password')}>
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
        <div className="form-actions">
          <Button type="submit" busy={signUp.isPending}>
            {t('signup.submit')}
          </Button>
        </div>
      </form>
    </AuthCard>
  );
}
