import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Route, Switch, useLocation } from 'wouter';
import { i18n } from './i18n';
import { ApiProblem } from './lib/api';
import type { Role } from './lib/session';
import { RequireRole } from './ui/require-role';
import { Layout } from './ui/layout';
import { Loading, NotFound } from './ui/states';

// Every page is its own chunk: the public pages load none of the dashboard's code.
const pages = {
  home: lazy(() => import('./features/public/home-page')),
  event: lazy(() => import('./features/public/event-page')),
  result: lazy(() => import('./features/public/result-page')),
  gallery: lazy(() => import('./features/showcase/gallery-page')),
  galleryProject: lazy(() => import('./features/showcase/project-page')),
  signIn: lazy(() => import('./features/auth/signin-page')),
  signUp: lazy(() => import('./features/auth/signup-page')),
  signUpConfirm: lazy(() => import('./features/auth/signup-confirm-page')),
  forgotPassword: lazy(() => import('./features/auth/forgot-password-page')),
  resetPassword: lazy(() => import('./features/auth/reset-password-page')),
  account: lazy(() => import('./features/auth/account-page')),
  apiKeys: lazy(() => import('./features/keys/api-keys-page')),
  webhooks: lazy(() => import('./features/webhooks/webhooks-page')),
  admin: lazy(() => import('./features/admin/admin-page')),
  organizerEvents: lazy(() => import('./features/organizer/events-page')),
  eventForm: lazy(() => import('./features/organizer/event-form-page')),
  eventDetail: lazy(() => import('./features/organizer/event-detail-page')),
  projectReviews: lazy(() => import('./features/organizer/project-reviews-page')),
  reviewEvents: lazy(() => import('./features/reviewer/review-events-page')),
  reviewProjects: lazy(() => import('./features/reviewer/review-projects-page')),
  reviewProject: lazy(() => import('./features/reviewer/review-project-page')),
  invitation: lazy(() => import('./features/reviewer/invitation-page')),
  register: lazy(() => import('./features/participant/register-page')),
  team: lazy(() => import('./features/participant/team-page')),
  join: lazy(() => import('./features/participant/join-page')),
  project: lazy(() => import('./features/participant/project-page')),
  myHackathons: lazy(() => import('./features/participant/my-hackathons-page')),
};

// The event page shows the signed-in person's team box, a participant part: features do not import
// each other, so the shell hands it in. Its own chunk, loaded only for a signed-in visitor.
const MyStatus = lazy(() => import('./features/participant/my-status'));

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: true,
        // A 4xx will not change by asking again; a network error or a 5xx may.
        retry: (count, error) => !(error instanceof ApiProblem && error.status < 500) && count < 2,
      },
      mutations: { retry: false },
    },
  });
}

function guarded<P extends object>(Page: ComponentType<P>, role: Role) {
  return (props: P) => (
    <RequireRole role={role}>
      <Page {...props} />
    </RequireRole>
  );
}

/** Scroll to the top and move focus to the main region when the page changes (screen readers hear it). */
function FocusOnNavigate() {
  const [location] = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
    const main = document.getElementById('main');
    if (main && document.activeElement !== document.body) main.focus({ preventScroll: true });
  }, [location]);
  return null;
}

export function Routes() {
  return (
    <Switch>
      <Route path="/" component={pages.home} />
      <Route path="/hackathons/:id">{(params) => <pages.event params={params} myStatus={MyStatus} />}</Route>
      <Route path="/hackathons/:id/result" component={pages.result} />
      <Route path="/hackathons/:id/gallery" component={pages.gallery} />
      <Route path="/hackathons/:id/projects/:projectId" component={pages.galleryProject} />
      <Route path="/hackathons/:id/register" component={guarded(pages.register, 'user')} />
      <Route path="/hackathons/:id/team" component={guarded(pages.team, 'user')} />
      <Route path="/hackathons/:id/join" component={pages.join} />
      <Route path="/hackathons/:id/project" component={guarded(pages.project, 'user')} />
      <Route path="/me/hackathons" component={guarded(pages.myHackathons, 'user')} />
      <Route path="/signin" component={pages.signIn} />
      <Route path="/signup" component={pages.signUp} />
      <Route path="/signup/confirm" component={pages.signUpConfirm} />
      <Route path="/forgot-password" component={pages.forgotPassword} />
      <Route path="/reset-password" component={pages.resetPassword} />
      <Route path="/account" component={guarded(pages.account, 'user')} />
      <Route path="/api-keys" component={guarded(pages.apiKeys, 'user')} />
      <Route path="/webhooks" component={guarded(pages.webhooks, 'user')} />
      <Route path="/admin" component={guarded(pages.admin, 'admin')} />
      <Route path="/admin/:tab" component={guarded(pages.admin, 'admin')} />
      <Route path="/events" component={guarded(pages.organizerEvents, 'organizer')} />
      <Route path="/events/new" component={guarded(pages.eventForm, 'organizer')} />
      <Route path="/events/:id/edit" component={guarded(pages.eventForm, 'organizer')} />
      <Route path="/events/:id" component={guarded(pages.eventDetail, 'organizer')} />
      <Route path="/events/:id/projects/:projectId" component={guarded(pages.projectReviews, 'organizer')} />
      <Route path="/events/:id/:tab" component={guarded(pages.eventDetail, 'organizer')} />
      <Route path="/reviews" component={guarded(pages.reviewEvents, 'user')} />
      <Route path="/reviews/:eventId" component={guarded(pages.reviewProjects, 'user')} />
      <Route path="/reviews/:eventId/projects/:projectId" component={guarded(pages.reviewProject, 'user')} />
      <Route path="/invitations/:token" component={pages.invitation} />
      <Route component={NotFound} />
    </Switch>
  );
}

export function App({ client }: { client: QueryClient }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <FocusOnNavigate />
        <Layout>
          <Suspense fallback={<Loading />}>
            <Routes />
          </Suspense>
        </Layout>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
