import { useQuery } from '@tanstack/react-query';
import { ApiProblem, get, type Answer } from './api';

/** GET /site: the site's public facts. */
export type SiteInfo = Answer<'/site'>;

/** The site's public facts (GET /site), one query shared by every page. If the route is missing, the page's own origin stands in. */
export function useSite() {
  return useQuery({
    queryKey: ['site'],
    queryFn: async (): Promise<SiteInfo> => {
      try {
        return await get('/site');
      } catch (err) {
        if (err instanceof ApiProblem && err.status === 404) return fallbackSite();
        throw err;
      }
    },
    staleTime: 5 * 60_000,
  });
}

export function fallbackSite(): SiteInfo {
  const origin = typeof window === 'undefined' ? 'http://localhost:3000' : window.location.origin;
  return { name: '', public_url: origin, api_base: `${origin}/api/v1`, signup_mode: 'open', ai_providers: [], password_min_length: 8 };
}

/** The API base to show in examples: the site's own, else this page's origin. */
export function apiBaseOf(site: SiteInfo | undefined): string {
  return site?.api_base || `${window.location.origin}/api/v1`;
}

export function publicUrlOf(site: SiteInfo | undefined): string {
  return site?.public_url || window.location.origin;
}

/**
 * The operator's SITE_NAME, which the server writes into the page's head (`<meta name="site-name">`)
 * when it is set; null when it is not, and the pages use their own translated default name.
 */
export function configuredSiteName(): string | null {
  if (typeof document === 'undefined') return null;
  return document.querySelector('meta[name="site-name"]')?.getAttribute('content')?.trim() || null;
}

/**
 * The operator's site logo (SITE_LOGO_URL / SITE_LOGO_FILE), from `<meta name="site-logo">`; on this
 * site it is used as a path (the pages' CSP allows it either way: the server adds an outside host).
 */
export function configuredSiteLogo(): string | null {
  if (typeof document === 'undefined') return null;
  const raw = document.querySelector('meta[name="site-logo"]')?.getAttribute('content')?.trim();
  if (!raw) return null;
  try {
    const u = new URL(raw, window.location.origin);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
    return u.origin === window.location.origin ? `${u.pathname}${u.search}` : u.href;
  } catch {
    return null;
  }
}
