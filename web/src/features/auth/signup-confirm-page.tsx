import { useMutation } from '@tanstack/react-query';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem, post, type Body } from '../../lib/api';
import { safeNext, useSession, useSessionUpdate } from '../../lib/session';
import { Button } from '../../ui/controls';
import { ProblemAlert } from '../../ui/states';
import { AuthCard } from './auth-shell';
import { afterSignIn, takeSignupNext } from './logic';
import { messages } from './messages';

/**
 * The page of the sign-up link (/signup/confirm?token=…). The account is made on a click, not on
 * load: a mail scanner opening the link must not spend it.
 */
export default function SignUpConfirmPage() {
  const { t } = useT('auth', messages);
  const token = new URLSearchParams(useSearch()).get('token');
  const { user } = useSession();
  const { signedIn } = useSessionUpdate();
  const [, navigate] = useLocation();
  const confirm = useMutation({
    mutationFn: (body: Body<'/auth/signup/confirm', 'post'>) => post('/auth/signup/confirm', { body }),
    onSuccess: (answer) => {
      signedIn(answer);
      navigate(afterSignIn(takeSignupNext(), answer.user.role, safeNext), { replace: true });
    },
  });
  // Signed in and no link to confirm: nothing to do here. With a link the page stays: a person who
  // is signed in may be confirming another account (their agent's, made with POST /agents/signup).
  if (user && !token && !confirm.isSuccess) return <Redirect to={afterSignIn(null, user.role, safeNext)} replace />;

  const problem = confirm.error instanceof ApiProblem ? confirm.error : null;
  if (!token || problem?.code === 'signup_token_invalid' || problem?.code === 'email_taken') {
    const text = !token ? t('confirm.missing') : problem?.code === 'email_taken' ? t('confirm.taken') : t('confirm.invalid');
    return (
      <AuthCard title={t('confirm.invalidTitle')}>
        <div className="auth-done">
          <p>{text}</p>
          <Link className="btn btn-primary" href="/signin">
            {t('confirm.signIn')}
          </Link>
          <Link className="btn btn-secondary" href="/signup">
            {t('confirm.signUp')}
          </Link>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('confirm.title')} intro={t('confirm.intro')}>
      {confirm.error ? <ProblemAlert error={confirm.error} /> : null}
      <div className="form-actions">
        <Button busy={confirm.isPending} onClick={() => confirm.mutate({ token })}>
          {t('confirm.submit')}
        </Button>
      </div>
    </AuthCard>
  );
}
