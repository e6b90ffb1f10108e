import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { LANGUAGES, setLanguage, useT, type Language } from '../i18n';
import { hasRole, useSession, useSessionUpdate } from '../lib/session';
import { configuredSiteLogo, configuredSiteName } from '../lib/site';

function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const [location] = useLocation();
  const active = href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`);
  return (
    <Link href={href} className={active ? 'nav-link nav-active' : 'nav-link'} aria-current={active ? 'page' : undefined}>
      {children}
    </Link>
  );
}

function LanguageSwitch() {
  const { t, i18n } = useT();
  return (
    <label className="lang-switch">
      <span className="sr-only">{t('nav.language')}</span>
      <select value={i18n.language} onChange={(e) => setLanguage(e.target.value as Language)} aria-label={t('nav.language')}>
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {t(`languages.${lng}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

function Links() {
  const { t } = useT();
  const { user } = useSession();
  const { signOut } = useSessionUpdate();
  const [, navigate] = useLocation();
  return (
    <>
      <ul className="nav-list">
        <li>
          <NavLink href="/">{t('nav.explore')}</NavLink>
        </li>
        {hasRole(user, 'organizer') ? (
          <li>
            <NavLink href="/events">{t('nav.dashboard')}</NavLink>
          </li>
        ) : null}
        {user ? (
          <li>
            <NavLink href="/me/hackathons">{t('nav.myHackathons')}</NavLink>
          </li>
        ) : null}
        {user ? (
          <li>
            <NavLink href="/reviews">{t('nav.reviews')}</NavLink>
          </li>
        ) : null}
        {user ? (
          <li>
            <NavLink href="/api-keys">{t('nav.apiKeys')}</NavLink>
            <NavLink href="/webhooks">{t('nav.webhooks')}</NavLink>
          </li>
        ) : null}
        {hasRole(user, 'admin') ? (
          <li>
            <NavLink href="/admin">{t('nav.admin')}</NavLink>
          </li>
        ) : null}
      </ul>
      <ul className="nav-list nav-user">
        {user ? (
          <>
            <li>
              <NavLink href="/account">{t('nav.account')}</NavLink>
            </li>
            <li>
              <button
                type="button"
                className="nav-link nav-button"
                onClick={() => {
                  void signOut().finally(() => navigate('/'));
                }}
              >
                {t('nav.signOut')}
              </button>
            </li>
          </>
        ) : (
          <>
            <li>
              <NavLink href="/signin">{t('nav.signIn')}</NavLink>
            </li>
            <li>
              <Link href="/signup" className="btn btn-primary btn-small">
                {t('nav.signUp')}
              </Link>
            </li>
          </>
        )}
        <li>
          <LanguageSwitch />
        </li>
      </ul>
    </>
  );
}

/** The frame of every page: a skip link, the header with navigation, the main region and a footer. */
export function Layout({ children }: { children: ReactNode }) {
  const { t } = useT();
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <header className="site-header">
        <div className="site-header-inner">
          <Link href="/" className="brand">
            {configuredSiteLogo() ? (
              <img className="site-logo" src={configuredSiteLogo()!} alt="" height="28" />
            ) : (
              <img src="/favicon.svg" alt="" width="28" height="28" />
            )}
            <span>{configuredSiteName() ?? t('brand')}</span>
          </Link>
          <nav className="nav-desktop" aria-label={t('nav.main')}>
            <Links />
          </nav>
          <details className="nav-mobile">
            <summary>{t('nav.menu')}</summary>
            <nav aria-label={t('nav.main')}>
              <Links />
            </nav>
          </details>
        </div>
      </header>
      <main id="main" className="site-main" tabIndex={-1}>
        {children}
      </main>
      <footer className="site-footer">
        <p>
          <strong>{configuredSiteName() ?? t('brand')}</strong> · {t('footer.tagline')}
        </p>
        <p>
          <a href="/api/v1/skill.md">{t('footer.skill')}</a> · <a href="/docs">{t('nav.apiDocs')}</a>
        </p>
      </footer>
    </div>
  );
}
