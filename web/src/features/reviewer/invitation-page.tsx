import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { problemCodeText, useT } from '../../i18n';
import { ApiProblem, get, post, type Answer } from '../../lib/api';
import { browserTimeZone, useFormat } from '../../lib/format';
import { useSession, useSessionUpdate } from '../../lib/session';
import { Button, CopyButton, PageHeader, useTitle } from '../../ui/controls';
import { Field } from '../../ui/form';
import { ErrorState, Loading, ProblemAlert } from '../../ui/states';
import { useSite } from '../../lib/site';
import { messages } from './messages';
import './reviewer.css';

type PublicInvitation = Answer<'/invitations/{token}'>;
type AcceptAnswer = Answer<'/invitations/{token}/accept', 'post'>;

const GONE: Record<string, 'notFound' | 'used' | 'expired' | 'closed'> = {
  invitation_not_found: 'notFound',
  invitation_used: 'used',
  invitation_expired: 'expired',
  invitation_closed: 'closed',
};

export default function InvitationPage({ params }: { params: { token: string } }) {
  const { t } = useT('reviewer', messages);
  const token = params.token;
  const [accepted, setAccepted] = useState<AcceptAnswer | null>(null);
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => get('/invitations/{token}', { path: { token } }),
    enabled: accepted === null,
    staleTime: 0,
  });
  if (accepted) return <Accepted answer={accepted} />;
  if (invitation.isPending) return <Loading />;
  if (invitation.isError) {
    const gone = invitation.error instanceof ApiProblem ? GONE[invitation.error.code] : undefined;
    if (gone) return <Gone kind={gone} />;
    return <ErrorState error={invitation.error} onRetry={() => void invitation.refetch()} />;
  }
  return (
    <div className="invite-card stack">
      <PageHeader
        title={t('invitation.heading', { event: invitation.data.event_name })}
        subtitle={t('invitation.intro', { event: invitation.data.event_name })}
      />
      <InvitationFacts invitation={invitation.data} />
      <AcceptPanel token={token} invitation={invitation.data} onAccepted={setAccepted} onGone={() => void invitation.refetch()} />
    </div>
  );
}

function InvitationFacts({ invitation }: { invitation: PublicInvitation }) {
  const { t } = useT('reviewer', messages);
  const f = useFormat();
  return (
    <dl className="facts card">
      <dt>{t('invitation.email')}</dt>
      <dd>
        <strong>{invitation.email}</strong>
      </dd>
      <dt>{t('invitation.expires')}</dt>
      <dd>{f.dateTime(invitation.expires_at)}</dd>
    </dl>
  );
}

function Gone({ kind }: { kind: 'notFound' | 'used' | 'expired' | 'closed' }) {
  const { t } = useT('reviewer', messages);
  const { user } = useSession();
  const title = t(`invitation.${kind}Title`);
  useTitle(title);
  return (
    <section className="state state-block" aria-labelledby="gone-title">
      <h1 id="gone-title">{title}</h1>
      <p>{t(`invitation.${kind}`)}</p>
      {kind === 'used' ? (
        <p>
          <Link href={user ? '/reviews' : '/signin?next=%2Freviews'}>{t('invitation.goReviews')}</Link>
        </p>
      ) : null}
    </section>
  );
}

function AcceptPanel({
  token,
  invitation,
  onAccepted,
  onGone,
}: {
  token: string;
  invitation: PublicInvitation;
  onAccepted: (a: AcceptAnswer) => void;
  onGone: () => void;
}) {
  const { t } = useT('reviewer', messages);
  const { user, loading } = useSession();
  const { sessionStarted, signOut } = useSessionUpdate();
  const client = useQueryClient();
  const site = useSite();
  const minLength = site.data?.password_min_length ?? 8;
  const [password, setPassword] = useState('');
  const [displayName, setDisplayName] = useState(invitation.name ?? '');
  const [localError, setLocalError] = useState<string | null>(null);
  const [signingOut, setSigningOut] = useState(false);
  const accept = useMutation({
    mutationFn: (body: Record<string, unknown>) => post('/invitations/{token}/accept', { path: { token }, body: { ...body, start_session: true } }),
    onSuccess: (answer) => {
      if (answer.csrf_token !== undefined) sessionStarted(answer.csrf_token ?? null);
      else void client.invalidateQueries({ queryKey: ['session'] });
      void client.invalidateQueries({ queryKey: ['me', 'review-events'] });
      onAccepted(answer);
    },
    onError: (err) => {
      if (err instanceof ApiProblem && err.code in GONE) onGone();
    },
  });
  if (loading) return <Loading />;
  const problem = accept.error instanceof ApiProblem ? accept.error : null;

  if (user && user.email.toLowerCase() === invitation.email.toLowerCase()) {
    return (
      <div className="card stack">
        <p>{t('invitation.signedInAs', { email: user.email })}</p>
        <ProblemAlert error={accept.error} />
        <div className="form-actions">
          <Button busy={accept.isPending} onClick={() => accept.mutate({})}>
            {t('invitation.accept')}
          </Button>
        </div>
      </div>
    );
  }
  if (user) {
    return (
      <div className="card stack">
        <p className="alert alert-warn">{t('invitation.otherAccount', { current: user.email, invited: invitation.email })}</p>
        <div className="form-actions">
          <Button
            variant="secondary"
            busy={signingOut}
            onClick={() => {
              setSigningOut(true);
              void signOut().finally(() => setSigningOut(false));
            }}
          >
            {t('invitation.signOut')}
          </Button>
        </div>
      </div>
    );
  }

  const exists = invitation.account_exists;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!password) return setLocalError(t('invitation.passwordRequired'));
    if (!exists && password.length < minLength) return setLocalError(t('invitation.passwordShort', { min: minLength }));
    setLocalError(null);
    // No `name`: in this API it labels the review key, not the person. A new account takes the
    // display name and the browser's time zone (its mails' times).
    accept.mutate(
      exists
        ? { email: invitation.email, password }
        : { email: invitation.email, password, ...(displayName.trim() ? { display_name: displayName.trim() } : {}), time_zone: browserTimeZone() },
    );
  };
  // A wrong password is 401 for the form as a whole; it belongs next to the password.
  const passwordError = localError ?? problem?.fieldError('password') ?? (problem?.status === 401 ? problemCodeText(problem.code, problem.detail) : undefined);
  const rest = accept.error && !passwordError ? accept.error : null;
  return (
    <section className="card" aria-labelledby="accept-heading">
      <h2 id="accept-heading">{t(exists ? 'invitation.signInToAccept' : 'invitation.createToAccept')}</h2>
      <p className="muted">{t(exists ? 'invitation.signInHint' : 'invitation.createHint', { email: invitation.email })}</p>
      <form onSubmit={submit} noValidate>
        {/* The address is fixed by the invitation; a hidden username field helps password managers. */}
        <input type="email" name="username" autoComplete="username" value={invitation.email} readOnly hidden />
        {exists ? null : (
          <Field label={t('invitation.displayName')} hint={t('invitation.displayNameHint')} error={problem?.fieldError('display_name')}>
            <input type="text" value={displayName} maxLength={100} autoComplete="name" onChange={(e) => setDisplayName(e.target.value)} />
          </Field>
        )}
        <Field
          label={t(exists ? 'invitation.password' : 'invitation.newPassword')}
          hint={exists ? undefined : t('invitation.passwordHint', { min: minLength })}
          error={passwordError}
        >
          <input
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete={exists ? 'current-password' : 'new-password'}
            required
          />
        </Field>
        {exists ? (
          <p className="small">
            <Link href="/forgot-password">{t('invitation.forgot')}</Link>
          </p>
        ) : null}
        <ProblemAlert error={rest} />
        <div className="form-actions">
          <Button type="submit" busy={accept.isPending}>
            {t(exists ? 'invitation.submitSignIn' : 'invitation.submitCreate')}
          </Button>
        </div>
      </form>
    </section>
  );
}

function Accepted({ answer }: { answer: AcceptAnswer }) {
  const { t } = useT('reviewer', messages);
  const [, navigate] = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);
  const target = `/reviews/${encodeURIComponent(answer.event_id)}`;
  // Without a new key there is nothing to show once: go straight to the projects.
  useEffect(() => {
    if (!answer.api_key) navigate(target, { replace: true });
    else heading.current?.focus();
  }, [answer, navigate, target]);
  if (!answer.api_key) return <Loading />;
  return (
    <div className="invite-card stack">
      <PageHeader title={t('invitation.doneTitle', { event: answer.event_name })} />
      <section className="card once-box stack" aria-labelledby="review-key-heading">
        <h2 id="review-key-heading" tabIndex={-1} ref={heading}>
          {t('invitation.keyHeading')}
        </h2>
        <p>{t('invitation.keyNote')}</p>
        <div className="secret">
          <span className="sr-only">{t('invitation.keyLabel')}</span>
          <code data-testid="review-key">{answer.api_key.key}</code>
          <CopyButton text={answer.api_key.key} label={t('invitation.copyKey')} />
        </div>
        <div className="form-actions">
          <Link href={target} className="btn btn-primary">
            {t('invitation.continue')}
          </Link>
        </div>
      </section>
    </div>
  );
}
