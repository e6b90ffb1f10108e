import { useQuery } from '@tanstack/react-query';
import { get } from '../../lib/api';

export interface SiteInfo {
  name: string;
  public_url: string;
  api_base: string;
  signup_mode: 'open' | 'invite' | 'closed';
  ai_providers: string[];
  password_min_length: number;
}

/** GET /site: the public URL (for examples and links) and the sign-up mode. */
export function useSite() {
  return useQuery({ queryKey: ['site'], queryFn: () => get<SiteInfo>('/site'), staleTime: 5 * 60_000 });
}

/** The API base to show in examples: the site's own, else this page's origin. */
export function apiBaseOf(site: SiteInfo | undefined): string {
  return site?.api_base || `${window.location.origin}/api/v1`;
}

export function publicUrlOf(site: SiteInfo | undefined): string {
  return site?.public_url || window.location.origin;
}
